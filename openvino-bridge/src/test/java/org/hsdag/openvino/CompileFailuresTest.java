package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.hsdag.backend.CompileStats;
import org.junit.jupiter.api.Test;

/** The compile line of a run says where and why its failed compiles failed, never a bare count. */
class CompileFailuresTest {
  private static final CompiledModels.Key KEY = new CompiledModels.Key(Path.of("m.xml"), "HETERO:CPU,CPU2",
      Map.of("a", "CPU"));

  private static void refuse(CompiledModels c, String why) {
    assertThrows(OpenVinoException.class, () -> c.compile(KEY, () -> {
      throw new OpenVinoException(why);
    }));
  }

  @Test
  void refusalsOfTheCostModelsDesignedSplitsAreNamedAsSuch() {
    CompiledModels c = new CompiledModels(() -> 0);
    c.during(CompiledModels.DESIGNED_SPLITS, () -> {
      refuse(c, "infer request: HETERO refused the split");
      refuse(c, "infer request: HETERO refused another split");
      return null;
    });
    refuse(c, "compile: out of memory");
    CompileStats s = c.stats("openvino");
    assertEquals(3, s.failedCompiles());
    String line = s.describe();
    assertTrue(line.endsWith("; 3 failed: 2 while compiling the splits the cost model is fitted on, while building it "
        + "(infer request: HETERO refused the split); 1 while compiling measurements of the run (compile: out of "
        + "memory)"), line);
  }

  @Test
  void noFailureNoWord() {
    CompiledModels c = new CompiledModels(() -> 0);
    assertTrue(!c.stats("openvino").describe().contains("failed"), c.stats("openvino").describe());
  }
}
