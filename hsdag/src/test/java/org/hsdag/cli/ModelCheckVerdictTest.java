package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** inspect, apply and tune read a model through one validator: the same verdict and the same first error line. */
class ModelCheckVerdictTest {
  @TempDir
  Path dir;

  @ParameterizedTest
  @EnumSource(ModelMutants.class)
  void inspectApplyAndTuneAgreeOnTheSimulator(ModelMutants mutant) throws IOException {
    ModelMutants.Written m = mutant.write(dir, "CPU");
    CliRun inspect = CliRun.of("inspect", m.xml().toString());
    CliRun apply = CliRun.of("apply", m.xml().toString(), m.placement().toString(), "--backend", "sim", "--rounds",
        "1");
    CliRun tune = CliRun.of("tune", m.xml().toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "1",
        "--out", dir.resolve("run").toString(), "--quiet");
    int expected = mutant.refusedEverywhere ? ExitCodes.BAD_INPUT : ExitCodes.OK;
    assertEquals(expected, inspect.exitCode(), inspect.out() + inspect.err());
    assertEquals(expected, apply.exitCode(), apply.out() + apply.err());
    assertEquals(expected, tune.exitCode(), tune.out() + tune.err());
    String line = ModelMutants.errorLine(inspect);
    assertEquals(line, ModelMutants.errorLine(apply));
    assertEquals(line, ModelMutants.errorLine(tune));
    if (mutant.refusedEverywhere) {
      assertEquals(1, inspect.err().strip().lines().count(), inspect.err());
      assertTrue(line.startsWith("hsdag: ") && !line.contains("internal error"), line);
    }
  }

  @ParameterizedTest
  // A missing .bin is no problem here; a Const region past any file leaves the reader no graph to show.
  @EnumSource(value = ModelMutants.class, names = {"MISSING_BIN", "CONST_OFFSET_MAX"}, mode = EnumSource.Mode.EXCLUDE)
  void lenientShowsTheModelAndListsTheProblem(ModelMutants mutant) throws IOException {
    ModelMutants.Written m = mutant.write(dir, "CPU");
    String problem = ModelMutants.errorLine(CliRun.of("inspect", m.xml().toString())).substring("hsdag: ".length());
    CliRun lenient = CliRun.of("inspect", "--lenient", m.xml().toString());
    assertEquals(0, lenient.exitCode(), lenient.err());
    assertTrue(lenient.out().contains("nodes / edges"), lenient.out());
    assertTrue(lenient.out().lines().anyMatch(l -> l.equals("warning: " + problem)), lenient.out());
  }

  @org.junit.jupiter.api.Test
  void causesAreNamed() throws IOException {
    assertTrue(refusal(ModelMutants.UNKNOWN_OP_TYPE).contains("has type 'FrobnicateV2', which opset1 does not have"));
    assertTrue(refusal(ModelMutants.OPSET_99).contains("is from opset 'opset99', which OpenVINO"));
    assertTrue(refusal(ModelMutants.IR_VERSION_7).contains("IR version 7, which OpenVINO"));
    assertTrue(refusal(ModelMutants.ALL_NAN_BIN).contains("hold only NaN"));
    assertTrue(refusal(ModelMutants.CONST_OFFSET_MAX).contains("past the end of any weights file"));
  }

  private String refusal(ModelMutants mutant) throws IOException {
    Path d = dir.resolve(mutant.name());
    java.nio.file.Files.createDirectories(d);
    return ModelMutants.errorLine(CliRun.of("inspect", mutant.write(d, "CPU").xml().toString()));
  }
}
