package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.placement.Placement;
import org.hsdag.placement.PlacementFiles;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Weights that are not the model's own, on the real backend: one line and exit 2, never "internal error". */
@Tag("openvino")
class RealRuntimeInputErrorsTest {
  @TempDir
  Path tmp;
  private Path model;
  private Path placement;

  @BeforeEach
  void writeModel() throws IOException {
    model = RealTinyModel.write(tmp);
    OpGraph graph = new IrReader().read(model);
    placement = tmp.resolve("cpu.json");
    PlacementFiles.write(placement, graph, Placement.allOn(DeviceSet.of("CPU"), graph.nodeCount(), "CPU"));
  }

  private CliRun apply() {
    return CliRun.of("apply", model.toString(), placement.toString(), "--backend", "openvino", "--rounds", "1");
  }

  @Test
  void aLongerBinIsAnotherModelsWeights() throws IOException {
    Files.write(IrReader.defaultBinPath(model), new byte[4096], StandardOpenOption.APPEND);
    CliRun r = apply();
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("another model's weights"), r.err());
  }

  @Test
  void weightsOpenVinoCannotReadAreBadInput() throws IOException {
    Path bin = IrReader.defaultBinPath(model);
    byte[] noise = new byte[(int) Files.size(bin)];
    new SplittableRandom(3).nextBytes(noise);
    Files.write(bin, noise);
    CliRun r = apply();
    // Random bytes in an axis constant: OpenVINO's reader refuses the model (a Gather axis out of range).
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("hsdag: OpenVINO cannot read") && !r.err().contains("internal error"), r.err());
  }
}
