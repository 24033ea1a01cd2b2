package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.Backends;
import org.hsdag.testkit.FakeBackend;
import org.hsdag.tune.RunManifest;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend added the way {@link org.hsdag.backend.BackendProvider} says (one provider class, {@code FakeBackendProvider}, and one
 * line in this module's {@code META-INF/services}) is listed in help, opened by name and tunes like
 * the built-in ones, with no change to the CLI.
 */
class BackendProviderCliTest {
  @TempDir
  Path tmp;

  @Test
  void theRegisteredTestBackendIsNamedInHelpAndListsItsDevices() {
    CliRun help = CliRun.of("tune", "--help");
    assertEquals(ExitCodes.OK, help.exitCode());
    String text = help.out().replaceAll("\\s+", " ");
    assertTrue(text.contains("auto, openvino, sim, fake"), text);

    CliRun devices = CliRun.of("devices", "--backend", "fake", "--json");
    assertEquals(ExitCodes.OK, devices.exitCode(), devices.err());
    assertTrue(devices.out().contains("\"backend\" : \"fake\"") && devices.out().contains("\"GPU.1\""), devices.out());
  }

  @Test
  void tuneRunsOnTheTestBackendAndRecordsIt() throws IOException {
    Path model = TestModels.twoBranch(tmp);
    Path out = tmp.resolve("run");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "fake", "--devices", "CPU,GPU.1", "--strategy",
        "random",
        "--budget", "6", "--top-k", "1", "--final-rounds", "1", "--out", out.toString());
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    RunManifest mf = RunManifest.read(out);
    assertEquals("fake", mf.backend());
    assertEquals(FakeBackend.cpuGpu().profile(), mf.profile());
    assertTrue(r.out().contains("fake/test"), r.out());
  }

  @Test
  void aFieldTheTestBackendCannotTakeIsBadInput() {
    CliRun r = CliRun.of("devices", "--backend", "fake", "--mismatch", "0.3");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertTrue(r.err().contains("--mismatch") && r.err().contains("--backend sim"), r.err());
  }

  @Test
  void theNativeCommandsBackendNameIsARegisteredRealBackend() {
    BackendProvider p = Backends.provider(RealBackendOption.NATIVE).orElseThrow();
    assertFalse(p.simulated(), p.summary());
    CliRun r = CliRun.of("check-runtime", "--backend", "sim");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertTrue(r.err().contains("check-runtime runs the real OpenVINO runtime only (--backend openvino)"), r.err());
  }

  @Test
  void theOldSelftestNameStillRunsTheRuntimeCheck() {
    CliRun r = CliRun.of("selftest", "--backend", "sim");
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertTrue(r.err().contains("check-runtime runs the real OpenVINO runtime only (--backend openvino)"), r.err());
  }
}
