package org.hsdag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hsdag.cli.UserInputException;
import org.hsdag.search.SearchStrategy;
import org.junit.jupiter.api.Test;

class MethodsTest {
  @Test
  void everyNamedMethodIsRegisteredInTableOrder() {
    assertEquals(List.of("cpu", "gpu0", "gpu1", "openvino-cpu", "openvino-gpu", "random", "greedy", "brkga", "placeto", "rnn",
        "hsdag", "hsdag-no-shape", "hsdag-no-id", "hsdag-no-structural"), Methods.names());
  }

  @Test
  void baselinesCreateStrategiesWithTheirName() throws Exception {
    for (String n : List.of("cpu", "gpu0", "gpu1", "openvino-cpu", "openvino-gpu", "random", "greedy", "brkga", "placeto", "rnn")) {
      SearchStrategy s = Methods.create(n);
      assertEquals(n, s.name());
      if (s instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  @Test
  void lookupIsCaseInsensitiveAndUnknownNamesListTheKnownOnes() {
    assertEquals("brkga", Methods.get(" BRKGA ").name());
    UserInputException e = assertThrows(UserInputException.class, () -> Methods.get("scotch"));
    assertTrue(e.getMessage().contains("placeto"), e.getMessage());
  }

  @Test
  void tablesGetTheRightRows() {
    assertEquals(Methods.Kind.ABLATION, Methods.get("hsdag-no-id").kind());
    assertEquals("GPU-only", Methods.get("gpu1").paperRow());
    assertEquals("GPU.1", Methods.get("gpu1").requiredDevice());
  }
}
