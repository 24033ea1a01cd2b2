package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hsdag.models.ModelCatalog;
import org.junit.jupiter.api.Test;

class MemoryOptionsTest {
  private static final String MODEL =
      ModelCatalog.xmlPath(ModelCatalog.locate(java.nio.file.Path.of("").toAbsolutePath()), "tiny_decoder").toString();

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
}
