package org.hsdag.placement;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/**
 * An ordered set of OpenVINO device names ({@code CPU}, {@code GPU.0}, {@code GPU.1}, {@code NPU}).
 * The order is the priority order used by HETERO strings and by device indices in placements.
 * Names are kept in their {@link #canonical} spelling, so {@code gpu.1} and {@code GPU.1} are one device.
 */
public record DeviceSet(List<String> names) {
  public DeviceSet {
    if (names.isEmpty()) {
      throw new InvalidPlacementException("a device set needs at least one device");
    }
    List<String> spelled = new ArrayList<>(names.size());
    for (String n : names) {
      if (n == null || n.isBlank() || n.contains(",") || n.contains(":")) {
        throw new InvalidPlacementException("bad device name '" + n + "'");
      }
      spelled.add(canonical(n));
    }
    if (new LinkedHashSet<>(spelled).size() != spelled.size()) {
      throw new InvalidPlacementException("duplicate device in " + names);
    }
    names = List.copyOf(spelled);
  }

  /**
   * The one spelling of a device name hsdag uses everywhere ({@code --devices}, placement files,
   * backends): surrounding spaces dropped, upper case as OpenVINO lists its devices ({@code gpu.1} is
   * {@code GPU.1}).
   */
  public static String canonical(String name) {
    return name.trim().toUpperCase(Locale.ROOT);
  }

  public static DeviceSet of(String... names) {
    return new DeviceSet(List.of(names));
  }

  /** Parses {@code "CPU,GPU.1"} (case-insensitive, spaces allowed). */
  public static DeviceSet parse(String commaSeparated) {
    List<String> out = new ArrayList<>();
    if (commaSeparated.isBlank()) {
      throw new InvalidPlacementException("no devices in '" + commaSeparated + "'");
    }
    for (String s : commaSeparated.split(",", -1)) {
      if (s.isBlank()) {
        throw new InvalidPlacementException("an empty device name in '" + commaSeparated + "'"); // a typo, not a wish
      }
      out.add(canonical(s));
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
