package org.hsdag.placement;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.ir.OpGraph;

/**
 * A device for every node of a graph: {@code deviceOf[node]} indexes {@link #devices()}.
 * Immutable (arrays are copied in and out).
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out and compared by content: an immutable value
public record Placement(DeviceSet devices, int[] deviceOf) {
  public Placement {
    deviceOf = deviceOf.clone();
    for (int i = 0; i < deviceOf.length; i++) {
      if (deviceOf[i] < 0 || deviceOf[i] >= devices.size()) {
        throw new InvalidPlacementException(
            "node " + i + " has device index " + deviceOf[i] + " outside " + devices);
      }
    }
  }

  /** Every one of {@code nodeCount} nodes on {@code device}. */
  public static Placement allOn(DeviceSet devices, int nodeCount, String device) {
    int d = devices.indexOf(device);
    if (d < 0) {
      throw new InvalidPlacementException("device " + device + " is not in " + devices);
    }
    int[] a = new int[nodeCount];
    Arrays.fill(a, d);
    return new Placement(devices, a);
  }

  @Override
  public int[] deviceOf() {
    return deviceOf.clone();
  }

  public int size() {
    return deviceOf.length;
  }

  public int deviceOf(int node) {
    return deviceOf[node];
  }

  public String deviceName(int node) {
    return devices.name(deviceOf[node]);
  }

  /** Nodes per device, indexed like {@link #devices()}. */
  public int[] countsPerDevice() {
    int[] c = new int[devices.size()];
    for (int d : deviceOf) {
      c[d]++;
    }
    return c;
  }

  /** True when every node is on one device. */
  public boolean isSingleDevice() {
    for (int d : deviceOf) {
      if (d != deviceOf[0]) {
        return false;
      }
    }
    return true;
  }

  /** A stable 64-bit hash of devices and assignment, for caches and logs. */
  public long hash64() {
    long h = 0xcbf29ce484222325L;
    for (String n : devices.names()) {
      for (int i = 0; i < n.length(); i++) {
        h = (h ^ n.charAt(i)) * 0x100000001b3L;
      }
      h = (h ^ 0xff) * 0x100000001b3L;
    }
    for (int d : deviceOf) {
      h = (h ^ d) * 0x100000001b3L;
    }
    return h;
  }

  /** The hash as 16 hex digits. */
  public String hashHex() {
    return String.format("%016x", hash64());
  }

  /** Friendly name → device, in node order (the shape of {@code best.json}). */
  public Map<String, String> toNameMap(OpGraph graph) {
    requireSize(graph);
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < deviceOf.length; i++) {
      m.put(graph.node(i).name(), devices.name(deviceOf[i]));
    }
    return m;
  }

  /**
   * Builds a placement from a friendly-name map, requiring every node and only known nodes and
   * devices.
   *
   * @throws InvalidPlacementException naming the first unknown node, missing node or unknown device
   */
  public static Placement fromNameMap(OpGraph graph, DeviceSet devices, Map<String, String> byName) {
    int[] a = new int[graph.nodeCount()];
    Arrays.fill(a, -1);
    for (Map.Entry<String, String> e : byName.entrySet()) {
      int d = devices.indexOf(e.getValue());
      if (d < 0) {
        throw new InvalidPlacementException(
            "node '" + e.getKey() + "' is placed on unknown device '" + e.getValue() + "' (devices: " + devices + ")");
      }
      int node = graph.indexOf(e.getKey());
      if (node < 0) {
        throw new InvalidPlacementException("placement names node '" + e.getKey() + "', which is not in the model");
      }
      a[node] = d;
    }
    int missing = 0;
    String first = null;
    for (int i = 0; i < a.length; i++) {
      if (a[i] < 0) {
        // Duplicate friendly names share the first node's entry.
        int same = graph.indexOf(graph.node(i).name());
        if (same != i && a[same] >= 0) {
          a[i] = a[same];
          continue;
        }
        missing++;
        if (first == null) {
          first = graph.node(i).name();
        }
      }
    }
    if (missing > 0) {
      throw new InvalidPlacementException(
          "placement misses " + missing + " of " + a.length + " nodes (first: '" + first
              + "'); HETERO needs every node placed");
    }
    return new Placement(devices, a);
  }

  private void requireSize(OpGraph graph) {
    if (graph.nodeCount() != deviceOf.length) {
      throw new InvalidPlacementException(
          "placement has " + deviceOf.length + " nodes but the model has " + graph.nodeCount());
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Placement p && devices.equals(p.devices) && Arrays.equals(deviceOf, p.deviceOf);
  }

  @Override
  public int hashCode() {
    return 31 * devices.hashCode() + Arrays.hashCode(deviceOf);
  }

  @Override
  public String toString() {
    return "Placement[" + devices + ", counts=" + Arrays.toString(countsPerDevice()) + "]";
  }
}
