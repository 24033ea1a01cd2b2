package org.hsdag.backend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.hsdag.ir.AttentionPartners;
import org.hsdag.ir.Edge;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.InputAxes;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * Sizes the dynamic inputs of one model one by one for {@link InputShapes#resolve}: what was given,
 * else per axis what the model fixes, the batch, a KV-cache axis's past length, the encoder's length
 * of a cross-attention cache or of a decoder's encoder states (from their attention partner) or a
 * sequence length. Inputs with an axis
 * none of these sizes are collected and refused together, in one line.
 */
final class InputSizing {
  final Map<String, long[]> sizes = new LinkedHashMap<>();
  final List<String> inputs = new ArrayList<>();
  final List<String> derivedNotes = new ArrayList<>();
  boolean assumed;
  private final OpGraph graph;
  private final Map<OpNode, long[]> chosen;
  private final long batch;
  private final long sequence;
  private final long past;
  private final List<OpNode> unsized = new ArrayList<>();
  private final List<Integer> unsizedAxis = new ArrayList<>();
  private int cacheInputs;
  private int crossInputs;
  private int statesInputs;
  private final List<String> crossLengths = new ArrayList<>();
  private final Map<OpNode, java.util.Optional<AttentionPartners.Partner>> partners = new java.util.HashMap<>();

  InputSizing(OpGraph graph, Map<OpNode, long[]> chosen, long batch, long sequence, long past) {
    this.graph = graph;
    this.chosen = chosen;
    this.batch = batch;
    this.sequence = sequence;
    this.past = past;
  }

  /** Sizes dynamic Parameter {@code p} (named also by {@code tensorNames}), or notes it as unsized. */
  void size(OpNode p, Set<String> tensorNames) {
    long[] dims = p.outputs().get(0).dims();
    long[] resolved = new long[dims.length];
    boolean cache = false;
    boolean cross = false;
    boolean states = false;
    for (int a = 0; a < dims.length; a++) {
      if (dims[a] >= 0) {
        resolved[a] = dims[a];
      } else if (chosen.containsKey(p)) {
        resolved[a] = chosen.get(p)[a];
      } else {
        var derived = InputAxes.derive(graph, p.index(), a);
        if (derived.isPresent()) {
          resolved[a] = derived.get().size();
          derivedNotes.add(InputShapes.inputName(p) + " axis " + a + " from " + derived.get().why());
        } else if (a > 0 && concatenatedAlong(p, a)) {
          resolved[a] = past;
          cache = true;
          assumed = true;
        } else if (a > 0 && crossLength(p, a) > 0) {
          resolved[a] = crossLength(p, a);
          cross = dims.length > 3;
          states = !cross;
          assumed = true;
        } else if (assumable(p, a, dims)) {
          resolved[a] = a == 0 ? batch : sequence;
          assumed = true;
        } else {
          unsized.add(p);
          unsizedAxis.add(a);
          return;
        }
      }
    }
    cacheInputs += cache ? 1 : 0;
    crossInputs += cross ? 1 : 0;
    statesInputs += states ? 1 : 0;
    inputs.add(InputShapes.inputName(p) + "="
        + Arrays.stream(resolved).mapToObj(Long::toString).collect(Collectors.joining("x")));
    sizes.put(p.name(), resolved);
    for (String t : tensorNames) {
      sizes.putIfAbsent(t, resolved);
    }
  }

  /** What the KV-cache inputs took, or null when the model has none left to assume. */
  String familyNote() {
    String self = cacheInputs == 0 ? null : cacheInputs + " KV-cache input" + (cacheInputs == 1 ? "" : "s")
        + " took the past length " + past + " on their cache axis";
    String cross = crossInputs == 0 ? null : crossInputs + " cross-attention cache" + (crossInputs == 1 ? "" : "s")
        + " took the encoder's length " + String.join(", ", crossLengths) + " from their attention";
    String states = statesInputs == 0 ? null : statesInputs + " encoder state input" + (statesInputs == 1 ? "" : "s")
        + " took the encoder's length " + String.join(", ", crossLengths) + " from the attention "
        + (statesInputs == 1 ? "it feeds" : "they feed");
    String said = java.util.stream.Stream.of(self, cross, states).filter(java.util.Objects::nonNull)
        .collect(Collectors.joining(", "));
    if (said.isEmpty()) {
      return null;
    }
    return said
        + " (size them with --past-length N, --sequence-length N or --input-shape 'PATTERN*=D1,D2,...')";
  }

  /**
   * The length of axis {@code a} of {@code p} when {@code p} is a cross-attention's cached keys or
   * values ({@link AttentionPartners}): its mask's length when the mask's size was given, else the
   * sequence length the mask and the encoder's other inputs take; 0 when {@code p} feeds no
   * attention on that axis.
   */
  private long crossLength(OpNode p, int a) {
    var partner = partners.computeIfAbsent(p, q -> AttentionPartners.of(graph, q.index()));
    if (partner.isEmpty() || partner.get().axis() != a) {
      return 0;
    }
    int m = partner.get().mask();
    long length = sequence;
    String from = "the sequence length";
    if (m >= 0) {
      OpNode mask = graph.node(m);
      int last = mask.outputs().get(0).rank() - 1;
      from = "'" + InputShapes.inputName(mask) + "'";
      if (chosen.containsKey(mask)) {
        length = chosen.get(mask)[last];
      }
    }
    String note = length + " (" + from + ")";
    if (!crossLengths.contains(note)) {
      crossLengths.add(note);
    }
    return length;
  }

  /** Throws one line naming every input with an axis nothing sized, and how to size them all at once. */
  void refuseUnsized() {
    if (unsized.isEmpty()) {
      return;
    }
    OpNode first = unsized.get(0);
    long[] dims = first.outputs().get(0).dims();
    if (unsized.size() == 1) {
      throw new IllegalArgumentException("--input-shape: input '" + InputShapes.inputName(first) + "' is ["
          + shape(dims, "?") + "] and nothing in the model fixes the size of its axis " + unsizedAxis.get(0)
          + " (not a batch or sequence axis); give it: --input-shape " + InputShapes.inputName(first) + "="
          + shape(dims, "N"));
    }
    String prefix = InputShapes.inputName(first);
    for (OpNode p : unsized) {
      String name = InputShapes.inputName(p);
      int k = 0;
      while (k < prefix.length() && k < name.length() && prefix.charAt(k) == name.charAt(k)) {
        k++;
      }
      prefix = prefix.substring(0, k);
    }
    List<String> named = unsized.stream().map(p -> "'" + InputShapes.inputName(p) + "' ["
        + shape(p.outputs().get(0).dims(), "?") + "]").toList();
    throw new IllegalArgumentException("--input-shape: " + unsized.size() + " inputs have an axis nothing in the model "
        + "fixes (not a batch, sequence or KV-cache axis): " + InputShapes.summary(named) + "; give them at once: "
        + "--input-shape '" + (prefix.isEmpty() ? InputShapes.inputName(first) : prefix + "*") + "=" + shape(dims, "N")
        + "'");
  }

  private static String shape(long[] dims, String dynamic) {
    return Arrays.stream(dims).mapToObj(d -> d < 0 ? dynamic : Long.toString(d)).collect(Collectors.joining(","));
  }

  /**
   * True when the input (directly or through a Convert) is concatenated along axis {@code a} with
   * other tensors: a KV cache grows along its past axis.
   */
  private boolean concatenatedAlong(OpNode p, int a) {
    int rank = p.outputs().get(0).rank();
    List<Integer> frontier = new ArrayList<>(List.of(p.index()));
    for (int hop = 0; hop < 2 && !frontier.isEmpty(); hop++) {
      List<Integer> next = new ArrayList<>();
      for (int v : frontier) {
        for (int j = 0; j < graph.outDegree(v); j++) {
          Edge e = graph.edge(graph.outEdge(v, j));
          OpNode c = graph.node(e.target());
          String axis = c.attribute("axis");
          if ("Concat".equals(c.type()) && axis != null && c.inputs().size() > 1) {
            long ax = Long.parseLong(axis.trim());
            if ((ax < 0 ? ax + rank : ax) == a) {
              return true;
            }
          } else if ("Convert".equals(c.type())) {
            next.add(e.target());
          }
        }
      }
      frontier = next;
    }
    return false;
  }

  /**
   * Whether axis {@code a} of a dynamic input may take the default size when nothing fixes it: a
   * batch (axis 0), any axis of an integer input (token ids, masks, positions: their lengths are
   * free), and the middle axis of a rank-3 float input ({@code [batch, sequence, hidden]}).
   * A float input's other axes (a hidden size, channels, an image's height) are not guessed.
   */
  private static boolean assumable(OpNode p, int a, long[] dims) {
    ElementType type = p.outputs().get(0).elementType();
    boolean floating = type == ElementType.F32 || type == ElementType.F16 || type == ElementType.BF16
        || type == ElementType.F64;
    return a == 0 || !floating || (dims.length == 3 && a == 1);
  }
}
