package io.objectmeta.api.spi;

/**
 * Called after each step of a multi-step write, for tests that stop a write between its steps.
 * A hook that throws stops the write there, as if the process had died: nothing after that step
 * runs, and what the steps before it wrote stays, with the intent recorded for repair.
 */
@FunctionalInterface
public interface StepHook {
  void after(String step);
}
