package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.tune.RunFolder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A new run locks its folder before the backend opens: a folder in use fails first, and a refusal leaves none. */
class RunFolderFirstTest {
  @TempDir
  Path tmp;

  @Test
  void aFolderInUseFailsBeforeAnythingElseIsChecked() throws Exception {
    Path out = tmp.resolve("busy");
    try (RunFolder held = RunFolder.lock(out)) {
      // NPU is not among the sim profile's devices: checked only once the backend is open.
      CliRun r = CliRun.of("tune", "tiny_chain", "--backend", "sim", "--devices", "CPU,NPU", "--out", out.toString());
      assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
      assertTrue(r.err().contains("is in use by another running 'hsdag tune'"), r.err());
    }
  }

  @Test
  void aNewRunRefusedAfterTheLockLeavesNoFolderBehind() {
    Path out = tmp.resolve("fresh");
    CliRun r = CliRun.of("tune", "tiny_chain", "--backend", "sim", "--devices", "CPU,NPU", "--out", out.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertFalse(r.err().contains("in use"), r.err());
    assertFalse(Files.exists(out), "the refused run left its folder");
  }
}
