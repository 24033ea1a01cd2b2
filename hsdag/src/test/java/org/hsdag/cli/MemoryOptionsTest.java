package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.models.ModelCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryOptionsTest {
  @TempDir
  Path tmp;

  private static final String MODEL = ModelCatalog
      .xmlPath(ModelCatalog.locate(java.nio.file.Path.of("").toAbsolutePath()), "tiny_decoder").toString();

  private static void assertUsageError(CliRun r, String expected) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains(expected), r.err());
  }

  @Test
  void aDeviceOutsideTheSetIsAOneLineUsageError() {
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.9=1GiB"),
        "--memory names GPU.9, which is not among the devices (CPU,GPU.1)");
  }

  @Test
  void badSizesAndEntriesAreOneLineUsageErrors() {
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=lots"),
        "--memory: bad size 'lots'");
    assertUsageError(CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1"),
        "--memory: bad memory entry 'GPU.1'");
    assertUsageError(CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=0"),
        "--memory: size '0' is out of range");
  }

  @Test
  void planKeepsWithinTheCapAndReportsMemoryPerDevice() {
    CliRun r = CliRun.of("plan", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB");
    assertEquals(ExitCodes.OK, r.exitCode(), r.err());
    assertTrue(r.out().contains("memory GPU.1 "), r.out());
    assertTrue(r.out().contains("of 1.00 MiB"), r.out());
  }

  @Test
  void aResumedTuneKeepsTheCapacitiesItStartedWith() throws IOException {
    Path out = tmp.resolve("run");
    CliRun first = CliRun.of("tune", MODEL, "--backend", "sim", "--devices", "CPU,GPU.1", "--memory", "GPU.1=1MiB",
        "--budget", "3", "--out", out.toString());
    assertEquals(ExitCodes.OK, first.exitCode(), first.err());
    assertTrue(gpuOnlyReason(out).contains("rejected by the memory model"), gpuOnlyReason(out));

    CliRun more = CliRun.of("tune", "--resume", "--out", out.toString(), "--budget", "6", "--memory", "GPU.1=1GiB");
    assertEquals(ExitCodes.OK, more.exitCode(), more.err());
    assertTrue(more.err().lines().anyMatch(l -> l.contains("ignored:") && l.contains("--memory")), more.err());
    // The final re-measurement ran again on resume, still under the run's own 1 MiB cap.
    assertTrue(gpuOnlyReason(out).contains("rejected by the memory model"), gpuOnlyReason(out));
  }

  private static String gpuOnlyReason(Path run) throws IOException {
    JsonNode result = new ObjectMapper().readTree(Files.readAllBytes(run.resolve("result.json")));
    for (JsonNode c : result.path("candidates")) {
      if (c.path("label").asText().equals("GPU.1-only")) {
        return c.path("reason").asText("");
      }
    }
    return "no GPU.1-only candidate in " + result;
  }
}
