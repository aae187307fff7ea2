package io.objectmeta.conformance.selftest;

import io.objectmeta.conformance.ConformanceFixture;
import io.objectmeta.conformance.DifferentialProperties;

/** The differential test over whatever fixture {@link SuiteSelfTest} sets; launcher only. */
public class SelfTestDifferential extends DifferentialProperties {
  static volatile ConformanceFixture current;

  @Override
  protected ConformanceFixture fixture() {
    return current;
  }
}
