package org.hsdag.placement;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.HeteroRules;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.placement.Placement;

/**
 * The device HETERO manual mode must see on every node for a placement (shared notes/openvino.md
 * §2.2): the placement with {@link HeteroRules} applied (constant-only nodes and Parameters on their
 * earliest consumer's device, Results on their producer's, every other node as placed). The result
 * covers every node, as manual mode requires (all-or-nothing). The C++ shim
 * ({@code hsdag_ov_model_set_affinities}) applies the same rules to nodes a caller leaves out, and
 * the simulator's sub-model split uses {@link HeteroRules} too, so the simulator and hardware agree.
 * Immutable and thread-safe.
 */
public final class HeteroAffinity {
  private final OpGraph graph;
  private final HeteroRules rules;

  /** Precomputes the rules of {@code graph}. */
  public HeteroAffinity(OpGraph graph) {
    this.graph = graph;
    this.rules = new HeteroRules(graph);
  }

  /** True when node {@code v} is a Const or computed only from constants. */
  public boolean isConstantOnly(int v) {
    return rules.isConstantOnly(v);
  }

  /**
   * The effective device index of every node under the rules.
   *
   * @throws InvalidPlacementException if the placement does not cover the graph
   */
  public int[] resolve(Placement placement) {
    return rules.resolve(placement.deviceOf());
  }

  /** The resolved placement as a new {@link Placement} on the same device set. */
  public Placement resolvedPlacement(Placement placement) {
    return new Placement(placement.devices(), resolve(placement));
  }

  /**
   * Friendly name → device for every node, in node order: the map the shim's {@code
   * set_affinities} takes and {@code best.json} holds. Nodes sharing a friendly name keep
   * the first one's device (HETERO keys by name).
   */
  public Map<String, String> nameMap(Placement placement) {
    int[] device = resolve(placement);
    Map<String, String> m = new LinkedHashMap<>();
    for (int v = 0; v < device.length; v++) {
      m.putIfAbsent(graph.node(v).name(), placement.devices().name(device[v]));
    }
    return m;
  }

  /**
   * Checks an affinity map against the op names OpenVINO read from the model file, before
   * compiling: every mapped name must exist in the runtime model.
   *
   * @return the problems found (empty when the map fits), at most a few named explicitly
   */
  public static List<String> checkAgainstModel(Map<String, String> affinities, List<String> runtimeOpNames) {
    return problems(missing(affinities, runtimeOpNames));
  }

  /** The most nodes of a graph OpenVINO may merge away while reading it before the file counts as another model. */
  static final double MAX_MERGED_SHARE = 0.1;

  /**
   * An affinity map fitted to the model OpenVINO read.
   *
   * @param affinities the map to set (nodes OpenVINO merged away left out)
   * @param problems why it does not fit (empty when it does)
   */
  public record ModelFit(Map<String, String> affinities, List<String> problems) {}

  /**
   * {@link #checkAgainstModel}, except that nodes OpenVINO merged away while reading the model are
   * left out of the map, as they have no device to take (ssd-inception-v2: five identical
   * ShapeOf→StridedSlice chains read as one, 25 of 600 nodes). More than {@value #MAX_MERGED_SHARE}
   * of them absent means another model file, and that is the problem reported.
   */
  public static ModelFit fitToModel(Map<String, String> affinities, List<String> runtimeOpNames) {
    List<String> missing = missing(affinities, runtimeOpNames);
    if (missing.size() > MAX_MERGED_SHARE * affinities.size()) {
      return new ModelFit(affinities, problems(missing));
    }
    Map<String, String> kept = new LinkedHashMap<>(affinities);
    kept.keySet().removeAll(missing);
    return new ModelFit(kept, List.of());
  }

  private static List<String> missing(Map<String, String> affinities, List<String> runtimeOpNames) {
    Set<String> runtime = new LinkedHashSet<>(runtimeOpNames);
    return affinities.keySet().stream().filter(name -> !runtime.contains(name)).toList();
  }

  private static List<String> problems(List<String> missing) {
    return missing.isEmpty() ? List.of()
        : List.of(missing.size() + " placed node(s) are not in the model OpenVINO read (first: '"
            + missing.get(0) + "'); the graph and the model file differ");
  }
}
