package org.hsdag.bench.real;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hsdag.placement.Placement;
import org.hsdag.placement.SplitPlacements;
import org.hsdag.plan.PlacementProxy;

/**
 * A short description of one placement {@link Fidelity} measured: a device per op would be as large as the
 * model, while a contiguous-run placement is fully given by the device it starts on and where the device
 * changes.
 *
 * @param id the candidate's number in the seed's list (both single devices are 0 and 1): stable for a model,
 *     device pair and {@code --seed}
 * @param label e.g. {@code CPU only} or {@code 3 changes, 120/480 ops on CPU2, starting on CPU}
 * @param startDevice the device of the first op in the cost model's op order
 * @param cuts every device change along that order
 * @param opsPerDevice ops (the cost model's, in its order) per device, every device listed
 * @param hash {@link Placement#hashHex()} of the whole graph's placement (constants and all)
 */
public record FidelityPlacement(int id, String label, String startDevice, List<Cut> cuts,
    Map<String, Integer> opsPerDevice, String hash) {
  public FidelityPlacement {
    cuts = List.copyOf(cuts);
    opsPerDevice = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(opsPerDevice));
  }

  /**
   * A device change: the run on {@code device} starts at op {@code at} of the cost model's order.
   *
   * @param at the op's index in the cost model's topological op order
   * @param op the op's friendly name
   * @param device the device from there on
   */
  public record Cut(int at, String op, String device) {}

  /** Device changes (runs minus one). */
  public int changes() {
    return cuts.size();
  }

  /** The description of candidate {@code id}: device {@code ops[i]} for the cost model's op i, resolved as {@code p}. */
  static FidelityPlacement of(int id, int[] ops, PlacementProxy proxy, Placement p) {
    List<Cut> cuts = new ArrayList<>();
    int[] count = new int[proxy.devices().size()];
    for (int i = 0; i < ops.length; i++) {
      count[ops[i]]++;
      if (i > 0 && ops[i] != ops[i - 1]) {
        cuts.add(new Cut(i, proxy.graph().node(proxy.model().node(i)).name(), proxy.devices().name(ops[i])));
      }
    }
    Map<String, Integer> perDevice = new LinkedHashMap<>();
    for (int d = 0; d < count.length; d++) {
      perDevice.put(proxy.devices().name(d), count[d]);
    }
    String start = proxy.devices().name(ops.length == 0 ? 0 : ops[0]);
    return new FidelityPlacement(id, label(ops, proxy), start, cuts, perDevice, p.hashHex());
  }

  private static String label(int[] ops, PlacementProxy proxy) {
    int changes = SplitPlacements.changes(ops);
    int second = 0;
    for (int d : ops) {
      second += d;
    }
    if (changes == 0) {
      return proxy.devices().name(ops.length == 0 ? 0 : ops[0]) + " only";
    }
    return String.format(Locale.ROOT, "%d change%s, %d/%d ops on %s, starting on %s", changes, changes == 1 ? "" : "s",
        second, ops.length, proxy.devices().name(1), proxy.devices().name(ops[0]));
  }
}
