package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --compile-cache-mb}: a negative size is bad input; the simulator compiles nothing and reports no compiles. */
class CompileCacheOptionsTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  private CliRun tune(String mb, Path out) {
    return CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "3",
        "--compile-cache-mb", mb, "--out", out.toString());
  }

  @Test
  void aNegativeBudgetIsBadInputInOneLine() {
    CliRun r = tune("-1", tmp.resolve("run"));
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals("hsdag: --compile-cache-mb must be >= 0 (0 keeps no compiled model; got -1)", r.err().strip());
  }

  @Test
  void theSimulatorTakesTheOptionAndReportsNoCompiles() throws IOException {
    Path out = tmp.resolve("sim");
    CliRun r = tune("64", out);
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    JsonNode result = new ObjectMapper().readTree(out.resolve("result.json").toFile());
    assertTrue(result.path("simulated").asBoolean());
    assertFalse(result.has("compile_cache"), "no compile figures for a simulated run: " + result);
    assertFalse(r.out().contains("compiles:"), r.out());
  }
}
