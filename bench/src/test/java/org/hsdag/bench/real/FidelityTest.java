package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.cli.ModelArgument;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.plan.Proxies;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.junit.jupiter.api.Test;

/** {@code bench fidelity} on the simulator: an exact cost model scores perfectly; the command's output and input checks. */
class FidelityTest {
  @Test
  void anExactCostModelHasRhoOneAndNoError() {
    OpGraph g = ModelArgument.read(ModelArgument.resolve(Path.of("tiny_chain")));
    try (SimBackend sim = new SimBackend(DeviceProfile.load("paper"), SimOptions.exact())) {
      DeviceSet pair = DeviceSet.of("CPU", "GPU.1");
      PlacementProxy proxy = Proxies.resolve(sim, g, pair, null, ShapeAssumption.DEFAULT).proxy();
      Fidelity.Result r = Fidelity.run(sim, g, "tiny_chain", proxy, new Fidelity.Settings(8, 3, 2, 1));
      assertEquals(8, r.rows().size());
      assertTrue(r.failures().isEmpty(), r.failures().toString());
      assertEquals(1.0, r.rho(), 1e-12);
      assertEquals(1.0, r.noiseRho(), 1e-12, "exact measurements rank alike in every round");
      assertEquals(0.0, r.maxAbsError(), 1e-12);
      assertEquals(0.0, r.medianAbsError(), 1e-12);
      assertEquals("CPU only", r.rows().get(0).label());
      assertEquals("GPU.1 only", r.rows().get(1).label());
      assertTrue(r.rows().stream().skip(2).allMatch(x -> x.label().contains("change")), r.rows().toString());
    }
  }

  @Test
  void theCommandPrintsTheFiguresWithBackendAndLoad() {
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU,GPU.1", "--backend", "sim",
        "--placements",
        "6", "--rounds", "2", "--runs", "2", "--details");
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.out().contains("backend sim") && r.out().contains("(simulated)"), r.out());
    assertTrue(r.out().contains("noise floor rho") && r.out().contains("load (start-end)"), r.out());
    assertTrue(r.out().contains("| tiny_chain | 6 (0) |"), r.out());
    assertTrue(r.out().contains("tiny_chain CPU only:"), r.out());
  }

  @Test
  void oneDeviceIsBadInput() {
    CliRun r = CliRun.of("bench", "fidelity", "tiny_chain", "--devices", "CPU", "--backend", "sim");
    assertEquals(2, r.exitCode());
    assertTrue(r.err().contains("--devices: fidelity compares two devices"), r.err());
  }
}
