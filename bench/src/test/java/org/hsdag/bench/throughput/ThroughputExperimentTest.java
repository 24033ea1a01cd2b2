package org.hsdag.bench.throughput;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;

/** {@code bench throughput} on the simulator, and the options that belong to the real runtime only. */
class ThroughputExperimentTest {
  @Test
  void planOnlyRowsNameTheSimulatorAndItsProfile() {
    CliRun r = CliRun.of("bench", "throughput", "tiny_chain", "--profile", "paper", "--devices", "CPU,GPU.1",
        "--plan-only", "--requests", "2");
    assertEquals(0, r.exitCode(), r.out() + r.err());
    assertTrue(r.out().lines().findFirst().orElse("").contains("backend sim, profile paper (every figure simulated"),
        r.out());
    String row = r.out().lines().filter(l -> l.startsWith("| paper | tiny_chain | CPU,GPU.1 |")).findFirst()
        .orElseThrow(() -> new AssertionError(r.out()));
    assertTrue(row.split("\\|", -1)[4].trim().matches("[0-9.]+ / [0-9.]+"), row);
    assertTrue(r.out().contains("with 2 requests in flight"), r.out());
  }

  @Test
  void realOnlyOptionsOnTheSimulatorAndProfilesOnTheRuntimeAreBadInput() {
    for (String[] args : new String[][] {{"--test-device", "CPU2"}, {"--input-shape", "x=1,8"},
        {"--backend", "openvino", "--profile", "paper"},
        {"--backend", "gpu-cloud"}}) {
      String[] full = new String[args.length + 3];
      full[0] = "bench";
      full[1] = "throughput";
      full[2] = "tiny_chain";
      System.arraycopy(args, 0, full, 3, args.length);
      CliRun r = CliRun.of(full);
      assertEquals(2, r.exitCode(), String.join(" ", args) + ": " + r.out() + r.err());
      assertEquals(1, r.err().lines().count(), r.err());
    }
  }
}
