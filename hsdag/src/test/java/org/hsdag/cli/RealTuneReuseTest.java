package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tune} on the real backend plans on the cost model a {@code plan} of the same model, devices,
 * test devices and sizes saved, says so, and saves what it builds; {@code --fresh-profile} builds anew,
 * and other test devices never get another's cost model.
 */
@Tag("openvino")
class RealTuneReuseTest {
  @TempDir
  Path tmp;

  private static CliRun real(String command, Path model, Path cache, String testDevice, String... more) {
    List<String> args = new ArrayList<>(List.of(command, model.toString(), "--devices", "CPU,CPU2", "--backend",
        "openvino", "--test-device", testDevice, "--cost-model-cache", cache.toString()));
    args.addAll(List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    return r;
  }

  @Test
  void aTuneAfterAPlanReusesItsCostModelAndAFreshProfileBuildsOne() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path cache = tmp.resolve("cost-models");
    CliRun plan = real("plan", model, cache, "CPU2:precision=f32");
    assertTrue(plan.out().contains("cost model built in "), plan.out());

    CliRun tune = real("tune", model, cache, "CPU2:precision=f32", "--budget", "2", "--final-rounds", "1", "--out",
        tmp.resolve("reused").toString());
    assertTrue(tune.err().contains("hsdag: cost model: reused from " + cache), tune.err());
    assertTrue(tune.err().contains(", built ") && tune.err().contains(" under load "), tune.err());
    assertFalse(tune.err().contains("building the cost model"), "nothing profiled again: " + tune.err());

    CliRun fresh = real("tune", model, cache, "CPU2:precision=f32", "--budget", "2", "--final-rounds", "1",
        "--fresh-profile", "--out", tmp.resolve("fresh").toString());
    assertTrue(fresh.err().contains("building the cost model"), fresh.err());
    assertTrue(fresh.err().contains("hsdag: cost model: built in "), fresh.err());

    CliRun again = real("plan", model, cache, "CPU2:precision=f32");
    assertTrue(again.out().contains("cost model reused from " + cache), "the tune's build is kept: " + again.out());

    CliRun other = real("plan", model, cache, "CPU2");
    assertTrue(other.out().contains("cost model built in "), "another test device, another cost model: " + other.out());
  }
}
