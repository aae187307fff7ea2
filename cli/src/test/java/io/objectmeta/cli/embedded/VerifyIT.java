package io.objectmeta.cli.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.objectmeta.conformance.Polling;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * verify through the real ./objectmeta on the embedded server, stopped: by SIGTERM it says it was
 * interrupted (no verdict on the store) and removes its scratch schemas; killed with kill -9 it
 * cannot, and the next run removes them.
 */
class VerifyIT extends LauncherTestBase {

  /** Starts verify and waits until it is a few seconds into its tests. */
  private Launcher.Run startedVerify() throws Exception {
    Launcher.Run run = launcher.start("verify");
    Polling.until("verify has begun its tests", Duration.ofMinutes(2),
        () -> run.err().contains("verify: scratch namespaces in") || !run.process().isAlive());
    assertThat(run.process().isAlive()).as(run.err()).isTrue();
    Thread.sleep(5000);
    assertThat(run.process().isAlive()).as("verify still running after 5 s of tests").isTrue();
    return run;
  }

  @Test
  void aVerifyStoppedBySigtermIsInterruptedNotAFailureOfTheStore() throws Exception {
    Launcher.Run run = startedVerify();
    run.process().destroy(); // SIGTERM, as Ctrl-C's SIGINT
    Launcher.Result r = run.await(Duration.ofMinutes(2));
    assertThat(r.exit()).as(r.err()).isEqualTo(143);
    assertThat(r.err()).contains("verify: interrupted after", "no verdict");
    assertThat(r.out()).doesNotContain("BREAKS", "keeps the contract");
    launcher.assertNoServer();
  }

  @Test
  void theScratchSchemasOfAKilledVerifyAreRemovedByTheNext() throws Exception {
    Launcher.Run doomed = startedVerify();
    doomed.process().destroyForcibly(); // kill -9: no shutdown hook, nothing cleaned up
    doomed.await(Duration.ofMinutes(1));

    Launcher.Run next = launcher.start("verify");
    Polling.until("the next verify removed the killed run's schemas", Duration.ofMinutes(2),
        () -> next.err().contains("removed the scratch namespaces of 1 earlier run")
            || !next.process().isAlive());
    assertThat(next.err()).contains("verify: removed the scratch namespaces of 1 earlier run");
    next.process().destroy();
    Launcher.Result r = next.await(Duration.ofMinutes(2));
    assertThat(r.err()).contains("verify: interrupted after");

    // and a third run finds nothing left by either
    Launcher.Run third = launcher.start("verify");
    Polling.until("the third verify began", Duration.ofMinutes(2),
        () -> third.err().contains("verify: scratch namespaces in") || !third.process().isAlive());
    Thread.sleep(3000);
    third.process().destroy();
    Launcher.Result r3 = third.await(Duration.ofMinutes(2));
    assertThat(r3.err()).contains("verify: interrupted after").doesNotContain("removed the scratch");
  }
}
