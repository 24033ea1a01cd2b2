package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hsdag.cost.DeviceModel;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.testkit.RealOpenVino;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bundled model named on the command line runs on the real runtime: the repository commits each
 * catalog model's XML without its weights, and a command that runs the model writes the seeded
 * stand-in weights first ({@link TuneBackends#requireWeights}). Here the repository is a temporary
 * {@code hsdag.home} holding {@code models/tiny_chain/tiny_chain.xml} alone, as committed.
 */
@Tag("openvino")
class CatalogNameRealRuntimeTest {
  @TempDir
  Path home;
  private CommittedCatalogHome committed;
  private Path bin;

  @BeforeEach
  void committedXmlWithoutWeights() throws IOException {
    RealOpenVino.require();
    committed = CommittedCatalogHome.at(home, "tiny_chain");
    bin = committed.bin();
  }

  @AfterEach
  void restoreHome() {
    committed.close();
  }

  @Test
  void calibrateGivenACatalogNameWritesTheStandInWeightsAndProfilesBothDevices() {
    assertFalse(Files.exists(bin));
    Path profile = home.resolve("this-cpu.json");
    CliRun r = CliRun.of("calibrate", "tiny_chain", "--devices", "CPU,CPU2", "--test-device", "CPU2:precision=f32",
        "-o", profile.toString(), "--runs", "3");
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    assertTrue(Files.isRegularFile(bin), "the stand-in weights were written beside the bundled XML");
    DeviceProfile p = DeviceProfile.load(profile.toString());
    assertEquals(List.of("CPU", "CPU2"), p.devices().stream().map(DeviceModel::name).toList());
  }
}
