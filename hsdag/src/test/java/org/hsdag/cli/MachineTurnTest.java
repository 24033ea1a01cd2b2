package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.backend.ForwardingBackend;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.MachineLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --no-wait}: while another tune holds the machine's measuring lock, a real tune refuses at once with one
 * line naming it; the simulator and a fleet never look. (A wait instead of a refusal would hang: the timeout, a guard.)
 */
@Timeout(600)
class MachineTurnTest {
  private static final String PID = Long.toString(ProcessHandle.current().pid());
  private static final String REFUSAL = "another hsdag tune (pid " + PID + ") is measuring on this machine; not "
      + "waiting for it (--no-wait)";

  @TempDir
  Path tmp;

  @Test
  void theOptionsChooseTheTurnAndExcludeEachOther() {
    assertEquals(MachineTurn.WAIT, MachineTurn.of(false, false));
    assertEquals(MachineTurn.REFUSE, MachineTurn.of(false, true));
    assertEquals(MachineTurn.SHARE, MachineTurn.of(true, false));
    UserInputException both = assertThrows(UserInputException.class, () -> MachineTurn.of(true, true));
    assertTrue(both.getMessage().startsWith("--share-machine and --no-wait cannot be combined"), both.getMessage());
  }

  @Test
  void aRealTuneRefusesWhileTheLockIsHeldAndTakesItWhenFree() throws Exception {
    LatencyBackend real = new RealFake();
    StringWriter err = new StringWriter();
    try (MachineLock held = MachineLock.tryAcquire(tmp, h -> {})) {
      assertNotNull(held);
      UserInputException e = assertThrows(UserInputException.class,
          () -> MachineTurn.REFUSE.take(real, real, tmp, new PrintWriter(err, true)));
      assertTrue(e.getMessage().startsWith(REFUSAL), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), "one line");
      assertEquals("", err.toString(), "a refusal is not a wait");
      // The simulator and a fleet's coordinator measure nothing here: no lock, no refusal.
      LatencyBackend sim = FakeBackend.cpuGpu();
      assertNull(MachineTurn.REFUSE.take(sim, sim, tmp, new PrintWriter(err, true)));
      assertNull(MachineTurn.REFUSE.take(real, sim, tmp, new PrintWriter(err, true)));
      assertNull(MachineTurn.SHARE.take(real, real, tmp, new PrintWriter(err, true)));
    }
    try (MachineLock mine = MachineTurn.REFUSE.take(real, real, tmp, new PrintWriter(err, true))) {
      assertNotNull(mine, "a free lock is taken");
      assertNull(MachineLock.tryAcquire(tmp, h -> {}), "and held for the run");
    }
  }

  @Test
  void theEarlyLookRefusesANamedRealBackendOnlyAndKeepsNoLock() throws Exception {
    try (MachineLock held = MachineLock.tryAcquire(tmp, h -> {})) {
      assertNotNull(held);
      UserInputException e = assertThrows(UserInputException.class,
          () -> MachineTurn.REFUSE.refuseEarly("openvino", null, false, tmp));
      assertTrue(e.getMessage().startsWith(REFUSAL), e.getMessage());
      assertThrows(UserInputException.class, () -> MachineTurn.REFUSE.refuseEarly("sim", new RealFake(), false, tmp));
      MachineTurn.REFUSE.refuseEarly("sim", null, false, tmp);
      MachineTurn.REFUSE.refuseEarly("auto", null, false, tmp); // known once open: the run's own take decides
      MachineTurn.REFUSE.refuseEarly("openvino", null, true, tmp); // a fleet's coordinator
      MachineTurn.WAIT.refuseEarly("openvino", null, false, tmp);
    }
    MachineTurn.REFUSE.refuseEarly("openvino", null, false, tmp);
    try (MachineLock after = MachineLock.tryAcquire(tmp, h -> {})) {
      assertNotNull(after, "the early look released the lock");
    }
  }

  @Test
  void theCommandExitsTwoAtOnceAndCreatesNothing() throws Exception {
    Path out = tmp.resolve("run");
    // The lock folder of this test fork (the build sets it per fork), held as a first tune would.
    try (MachineLock held = MachineLock.tryAcquire(MachineLock.defaultDir(), h -> {})) {
      assertNotNull(held, "this fork's lock is free");
      CliRun r = CliRun.of("tune", "tiny_chain", "--backend", "openvino", "--devices", "CPU,CPU2", "--no-wait",
          "--out", out.toString());
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().startsWith("hsdag: " + REFUSAL), r.err());
      assertFalse(Files.exists(out), "the refused run created its folder");
      // The simulator measures nothing on the machine: it runs.
      CliRun sim = CliRun.of("tune", "tiny_chain", "--backend", "sim", "--budget", "3", "--top-k", "1",
          "--final-rounds", "1", "--no-wait", "--quiet", "--no-report", "--out", tmp.resolve("sim").toString());
      assertEquals(ExitCodes.OK, sim.exitCode(), sim.err());
    }
    CliRun both = CliRun.of("tune", "tiny_chain", "--backend", "sim", "--no-wait", "--share-machine", "--out",
        out.toString());
    assertEquals(ExitCodes.BAD_INPUT, both.exitCode(), both.err());
    assertTrue(both.err().startsWith("hsdag: --share-machine and --no-wait cannot be combined"), both.err());
  }

  /** The fake backend, saying it measures on hardware. */
  private static final class RealFake extends ForwardingBackend {
    RealFake() {
      super(FakeBackend.cpuGpu());
    }

    @Override
    public boolean simulated() {
      return false;
    }
  }
}
