package org.hsdag.openvino;

import java.util.EnumSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import org.hsdag.backend.BackendProvider;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.BackendUnavailableException;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.backend.TestDevice;

/** Real OpenVINO as a {@link BackendProvider}: first in auto's order, taken when its native library loads. */
public final class OpenVinoBackendProvider implements BackendProvider {
  @Override
  public String name() {
    return OpenVinoBackend.NAME;
  }

  @Override
  public String summary() {
    return "real hardware through the OpenVINO runtime";
  }

  @Override
  public boolean simulated() {
    return false;
  }

  @Override
  public Set<Feature> features() {
    return EnumSet.of(Feature.TEST_DEVICES);
  }

  @Override
  public OptionalInt autoRank() {
    return OptionalInt.of(0);
  }

  /**
   * The single place the real backend is created; unavailable (with the reason and the fix) unless
   * the native library was built (native/provision.sh) and loads. The profile does not apply: the
   * backend describes the real machine.
   *
   * @throws IllegalArgumentException for a malformed test device
   */
  @Override
  public LatencyBackend open(BackendRequest request, Consumer<String> notices) {
    OpenVinoOptions options = OpenVinoOptions.DEFAULT.withInputShapes(request.inputShapes().sizes())
        .withTestDevices(request.testDevices().stream().map(TestDevice::parse).toList());
    OpenVinoAvailability a = OpenVinoBackend.availability();
    if (!a.available()) {
      throw new BackendUnavailableException(a.oneLine());
    }
    try {
      return OpenVinoBackend.open(options, request.inputShapes().shapes());
    } catch (OpenVinoException e) {
      throw new BackendUnavailableException("openvino backend unavailable: " + e.getMessage(), e);
    }
  }

  @Override
  public Optional<String> moreDevicesHint() {
    return Optional.of("--test-device CPU2:precision=f32 adds a second real device");
  }
}
