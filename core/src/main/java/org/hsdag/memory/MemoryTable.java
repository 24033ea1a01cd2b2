package org.hsdag.memory;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A placement's memory per device as reports keep it: a JSON object keyed by device (bytes of
 * weights, activation peak, boundary copies, runtime, total, capacity or null) that {@code plan},
 * {@code tune}'s {@code result.json}, {@code apply} and {@code bench} write, and read back here.
 */
public final class MemoryTable {
  private MemoryTable() {}

  /** Per device, in the order given: the figures in bytes, capacity null when the device is not limited. */
  public static Map<String, Object> json(List<MemoryUse> uses) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (MemoryUse u : uses) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("weights_bytes", u.weightBytes());
      m.put("activation_peak_bytes", u.activationPeakBytes());
      m.put("boundary_bytes", u.boundaryBytes());
      m.put("runtime_bytes", u.overheadBytes());
      m.put("total_bytes", u.totalBytes());
      m.put("capacity_bytes", u.limited() ? u.capacityBytes() : null);
      out.put(u.device(), m);
    }
    return out;
  }

  /** What {@link #json} wrote (an object keyed by device); empty for a missing or non-object node. */
  public static List<MemoryUse> read(JsonNode node) {
    List<MemoryUse> out = new ArrayList<>();
    if (node == null || !node.isObject()) {
      return out;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode m = e.getValue();
      JsonNode cap = m.path("capacity_bytes");
      out.add(new MemoryUse(e.getKey(), m.path("weights_bytes").asLong(), m.path("activation_peak_bytes").asLong(),
          m.path("boundary_bytes").asLong(), m.path("runtime_bytes").asLong(),
          cap.isNumber() ? cap.asLong() : Long.MAX_VALUE));
    }
    return out;
  }

  /** Table rows: device, total, capacity ("none"), weights, activation peak, runtime, and whether it fits. */
  public static List<List<String>> rows(List<MemoryUse> uses) {
    List<List<String>> rows = new ArrayList<>();
    for (MemoryUse u : uses) {
      rows.add(List.of(u.device(), ByteSizes.format(u.totalBytes()),
          u.limited() ? ByteSizes.format(u.capacityBytes()) : "none", ByteSizes.format(u.weightBytes()),
          ByteSizes.format(u.activationPeakBytes()), ByteSizes.format(u.overheadBytes()), u.fits() ? "yes" : "NO"));
    }
    return rows;
  }

  /** Headers of {@link #rows}. */
  public static final List<String> HEADERS = List.of("device", "needs", "capacity", "weights", "activation peak",
      "runtime", "fits");
}
