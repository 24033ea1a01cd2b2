package org.hsdag.placement;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * An ordered set of OpenVINO device names ({@code CPU}, {@code GPU.0}, {@code GPU.1}, {@code NPU}).
 * The order is the priority order used by HETERO strings and by device indices in placements.
 */
public record DeviceSet(List<String> names) {
  public DeviceSet {
    if (names.isEmpty()) {
      throw new InvalidPlacementException("a device set needs at least one device");
    }
    if (new LinkedHashSet<>(names).size() != names.size()) {
      throw new InvalidPlacementException("duplicate device in " + names);
    }
    for (String n : names) {
      if (n == null || n.isBlank() || n.contains(",") || n.contains(":")) {
        throw new InvalidPlacementException("bad device name '" + n + "'");
      }
    }
    names = List.copyOf(names);
  }

  public static DeviceSet of(String... names) {
    return new DeviceSet(List.of(names));
  }

  /** Parses {@code "CPU,GPU.1"} (case-insensitive, spaces allowed). */
  public static DeviceSet parse(String commaSeparated) {
    List<String> out = new ArrayList<>();
    for (String s : commaSeparated.split(",")) {
      String t = s.trim().toUpperCase(Locale.ROOT);
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    if (out.isEmpty()) {
      throw new InvalidPlacementException("no devices in '" + commaSeparated + "'");
    }
    return new DeviceSet(out);
  }

  public int size() {
    return names.size();
  }

  public String name(int index) {
    return names.get(index);
  }

  /** Index of a device, or -1. */
  public int indexOf(String name) {
    return names.indexOf(name);
  }

  public boolean contains(String name) {
    return names.contains(name);
  }

  /** The HETERO device string, e.g. {@code HETERO:GPU.1,CPU}. */
  public String heteroString() {
    return "HETERO:" + String.join(",", names);
  }

  @Override
  public String toString() {
    return String.join(",", names);
  }
}
