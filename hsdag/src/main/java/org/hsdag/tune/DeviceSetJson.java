package org.hsdag.tune;

import com.fasterxml.jackson.databind.util.StdConverter;
import java.util.List;
import org.hsdag.placement.DeviceSet;

/** A {@link DeviceSet} as a run's manifest records it: the list of names, e.g. {@code ["CPU", "GPU.1"]}. */
final class DeviceSetJson {
  private DeviceSetJson() {}

  /** Writes the names. */
  static final class Names extends StdConverter<DeviceSet, List<String>> {
    @Override
    public List<String> convert(DeviceSet value) {
      return value.names();
    }
  }

  /** Reads the names back. */
  static final class Parsed extends StdConverter<List<String>, DeviceSet> {
    @Override
    public DeviceSet convert(List<String> value) {
      return new DeviceSet(value);
    }
  }
}
