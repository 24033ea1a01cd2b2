package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** On the real runtime, inspect --backend openvino and apply/tune on it refuse the same models with the same line. */
@Tag("openvino")
class RealModelCheckVerdictTest {
  private static final String[] REAL = {"--backend", "openvino", "--test-device", "CPU2:precision=f32"};

  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(value = ModelMutants.class, names = {"MISSING_BIN", "ALL_NAN_BIN", "UNKNOWN_OP_TYPE"})
  void inspectApplyAndTuneAgree(ModelMutants mutant) throws IOException {
    RealOpenVino.require();
    ModelMutants.Written m = mutant.write(dir, "CPU");
    CliRun inspect = CliRun.of(args("inspect", m.xml().toString()));
    CliRun apply = CliRun.of(args("apply", m.xml().toString(), m.placement().toString(), "--devices", "CPU,CPU2",
        "--rounds", "1"));
    CliRun tune = CliRun.of(args("tune", m.xml().toString(), "--devices", "CPU,CPU2", "--budget", "1", "--out",
        dir.resolve("run").toString(), "--quiet"));
    assertEquals(ExitCodes.BAD_INPUT, inspect.exitCode(), inspect.out() + inspect.err());
    assertEquals(ExitCodes.BAD_INPUT, apply.exitCode(), apply.out() + apply.err());
    assertEquals(ExitCodes.BAD_INPUT, tune.exitCode(), tune.out() + tune.err());
    String line = ModelMutants.errorLine(inspect);
    assertEquals(line, ModelMutants.errorLine(apply));
    assertEquals(line, ModelMutants.errorLine(tune));
    CliRun lenient = CliRun.of(args("inspect", "--lenient", m.xml().toString()));
    assertEquals(0, lenient.exitCode(), lenient.err());
    assertTrue(lenient.out().lines().anyMatch(l -> l.equals("warning: " + line.substring("hsdag: ".length()))),
        lenient.out());
  }

  private static String[] args(String... first) {
    String[] all = java.util.Arrays.copyOf(first, first.length + REAL.length);
    System.arraycopy(REAL, 0, all, first.length, REAL.length);
    return all;
  }
}
