package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DevicesCommandTest {
  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    CommandLine cl = HsdagCli.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void simPaperListsDevicesWithFullNamesAndSaysBackendAndProfile() {
    Run r = run("devices", "--backend", "sim", "--profile", "paper");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    assertTrue(r.out().contains("backend  sim (simulated"), r.out());
    assertTrue(r.out().contains("profile  paper"), r.out());
    assertTrue(r.out().contains("CPU") && r.out().contains("12th Gen Intel(R) Core(TM) i9-12900K"), r.out());
    assertTrue(r.out().contains("GPU.0") && r.out().contains("Intel(R) UHD Graphics 770 (iGPU)"), r.out());
    assertTrue(r.out().contains("GPU.1") && r.out().contains("Intel(R) Data Center GPU Flex 170 (dGPU)"), r.out());
  }

  @Test
  void autoFallsBackToSimAndSaysWhy() {
    Run r = run("devices", "--json");
    assertEquals(ExitCodes.OK, r.exit(), r.err());
    assertTrue(r.err().contains("backend auto: using sim"), r.err());
    assertTrue(r.out().contains("\"backend\" : \"sim\"") && r.out().contains("\"profile\" : \"paper\""), r.out());
  }

  @Test
  void otherProfilesAndBadInput() {
    Run laptop = run("devices", "--backend", "sim", "--profile", "laptop-core-ultra");
    assertEquals(ExitCodes.OK, laptop.exit(), laptop.err());
    assertTrue(laptop.out().contains("NPU") && laptop.out().contains("Intel(R) AI Boost"), laptop.out());
    Run unknown = run("devices", "--backend", "sim", "--profile", "mars");
    assertEquals(ExitCodes.BAD_INPUT, unknown.exit());
    assertTrue(unknown.err().contains("unknown profile 'mars'"), unknown.err());
    Run openvino = run("devices", "--backend", "openvino");
    // Unavailable here: a failure of the environment (exit 1), explained in one line.
    assertEquals(ExitCodes.FAILURE, openvino.exit());
    assertTrue(openvino.err().contains("native"), openvino.err());
    assertEquals(1, openvino.err().strip().lines().count(), openvino.err());
    Run list = run("devices", "--list-profiles");
    assertTrue(list.out().contains("paper") && list.out().contains("laptop-core-ultra"), list.out());
  }
}
