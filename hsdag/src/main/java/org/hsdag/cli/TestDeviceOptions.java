package org.hsdag.cli;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.TestDevice;
import picocli.CommandLine.Option;

/** The {@code --test-device} picocli mixin: OpenVINO's CPU plugin registered again as a second real device. */
public final class TestDeviceOptions {
  @Option(names = "--test-device", paramLabel = "DEVICE",
      description = "openvino only: NAME[:threads=N][:precision=f32|bf16|f16] registers OpenVINO's CPU plugin again as "
          + "device NAME (it must contain CPU, e.g. CPU2), with N inference threads (default 1) and that inference "
          + "precision, as a second real device for HETERO on a machine without a GPU (inside a split only the "
          + "precision makes it differ: docs/real-hardware.md). "
          + "Repeat for more. Devices, reports and apply name it as a test device.")
  List<String> testDevices = new ArrayList<>();

  /**
   * The {@code --test-device} entries, parsed.
   *
   * @throws UserInputException naming what is wrong with an entry
   */
  public List<TestDevice> testDevices() {
    try {
      return testDevices.stream().map(TestDevice::parse).toList();
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--test-device: " + e.getMessage());
    }
  }
}
