package org.hsdag.backend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.hsdag.cost.ShapeAssumption;
import org.hsdag.cost.TensorShapes;
import org.hsdag.ir.ElementType;
import org.hsdag.ir.InputAxes;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Port;
import org.hsdag.ir.Shapes;

/**
 * What the user said about the shapes of a model's dynamic inputs ({@code --input-shape
 * input_ids=1,128}), turned into the simulator's {@link ShapeAssumption}: the batch is the size
 * given for dynamic axis 0, the sequence the size given for the other dynamic axes. Inputs are
 * named by their Parameter's friendly name or one of its tensor names.
 *
 * @param given static shapes by input name, in the order given (empty: assume the default)
 */
public record InputShapes(Map<String, long[]> given) {
  public static final InputShapes NONE = new InputShapes(Map.of());

  public InputShapes {
    Map<String, long[]> copy = new LinkedHashMap<>();
    given.forEach((k, v) -> copy.put(Objects.requireNonNull(k), v.clone()));
    given = java.util.Collections.unmodifiableMap(copy);
  }

  @Override
  public Map<String, long[]> given() {
    Map<String, long[]> copy = new LinkedHashMap<>();
    given.forEach((k, v) -> copy.put(k, v.clone()));
    return copy;
  }

  /**
   * The shape assumption for {@code graph}, and how each dynamic input resolves under it.
   *
   * @param given the sizes the user gave, by input name
   * @param shapes what the simulator substitutes for dynamic dimensions
   * @param inputs each dynamic input as {@code name=1x8}, in model order (empty for a static model)
   * @param assumed true when a dynamic input's size came from the default, not from the user or the model
   * @param note a caveat to print (e.g. two sequence lengths where the simulator has one), or null
   * @param sizes the static shape of every dynamic input as announced in {@code inputs}, by its
   *     friendly name and each of its tensor names: what the real backend compiles
   */
  public record Resolution(InputShapes given, ShapeAssumption shapes, List<String> inputs, boolean assumed,
      String note, Map<String, long[]> sizes) {
    /** A model without dynamic inputs, or no model: nothing given, the default assumption. */
    public static final Resolution NONE = new Resolution(InputShapes.NONE, ShapeAssumption.DEFAULT, List.of(), false,
        null);

    public Resolution {
      Objects.requireNonNull(given);
      Objects.requireNonNull(shapes);
      inputs = List.copyOf(inputs);
      Map<String, long[]> copy = new LinkedHashMap<>();
      sizes.forEach((k, v) -> copy.put(Objects.requireNonNull(k), v.clone()));
      sizes = java.util.Collections.unmodifiableMap(copy);
    }

    /** A resolution that fixes no input's size itself (the real backend compiles only what {@code given} says). */
    public Resolution(InputShapes given, ShapeAssumption shapes, List<String> inputs, boolean assumed, String note) {
      this(given, shapes, inputs, assumed, note, given.given());
    }

    /** The static shapes to compile, by input name; the arrays are copies. */
    @Override
    public Map<String, long[]> sizes() {
      Map<String, long[]> copy = new LinkedHashMap<>();
      sizes.forEach((k, v) -> copy.put(k, v.clone()));
      return copy;
    }

    /** The line to print once for a dynamic model, or null for a static one. */
    public String notice() {
      if (inputs.isEmpty()) {
        return null;
      }
      String what = summary(inputs);
      String line = assumed ? "the model has dynamic inputs; assumed " + what + " (set --input-shape NAME=D1,D2,...)"
          : "dynamic inputs measured as " + what;
      return note == null ? line : line + "; " + note;
    }
  }

  private static final int INPUTS_NAMED = 3;

  /** The first few inputs by name, then how many more (a model may have hundreds). */
  private static String summary(List<String> inputs) {
    if (inputs.size() <= INPUTS_NAMED + 1) {
      return String.join(", ", inputs);
    }
    return String.join(", ", inputs.subList(0, INPUTS_NAMED)) + " and " + (inputs.size() - INPUTS_NAMED) + " more";
  }

  /**
   * Resolves the shapes for {@code graph}.
   *
   * @throws IllegalArgumentException naming the input for an unknown name, a rank or static
   *     dimension that contradicts the model, or two different batch sizes
   */
  public Resolution resolve(OpGraph graph) {
    Map<String, OpNode> byName = new LinkedHashMap<>();
    List<OpNode> parameters = new ArrayList<>();
    for (OpNode n : graph.nodes()) {
      if (n.isParameter()) {
        parameters.add(n);
        byName.put(n.name(), n);
        for (String t : tensorNames(n)) {
          byName.putIfAbsent(t, n);
        }
      }
    }
    Map<OpNode, long[]> chosen = chosen(byName, parameters);
    Set<Long> batches = new TreeSet<>();
    Set<Long> sequences = new TreeSet<>();
    for (Map.Entry<OpNode, long[]> c : chosen.entrySet()) {
      long[] model = c.getKey().outputs().get(0).dims();
      for (int a = 0; a < model.length; a++) {
        if (model[a] < 0) {
          (a == 0 ? batches : sequences).add(c.getValue()[a]);
        }
      }
    }
    if (batches.size() > 1) {
      throw new IllegalArgumentException("--input-shape: the simulator needs one batch size, got " + batches);
    }
    long batch = batches.isEmpty() ? ShapeAssumption.DEFAULT.batch() : batches.iterator().next();
    long sequence = sequences.isEmpty() ? ShapeAssumption.DEFAULT.sequence() : ((TreeSet<Long>) sequences).last();
    String note = sequences.size() > 1 ? "the simulator gives every dynamic non-batch axis one length and uses the "
        + "largest, " + sequence + " (given " + sequences + ")" : null;
    ShapeAssumption shapes = new ShapeAssumption(batch, sequence);
    List<String> inputs = new ArrayList<>();
    List<String> derivedNotes = new ArrayList<>();
    Map<String, long[]> sizes = new LinkedHashMap<>();
    boolean assumed = false;
    for (OpNode p : parameters) {
      Port out = p.outputs().get(0);
      if (!out.isDynamic()) {
        continue;
      }
      long[] dims = out.dims();
      long[] resolved = new long[dims.length];
      for (int a = 0; a < dims.length; a++) {
        if (dims[a] >= 0) {
          resolved[a] = dims[a];
        } else if (chosen.containsKey(p)) {
          resolved[a] = chosen.get(p)[a];
        } else {
          var derived = InputAxes.derive(graph, p.index(), a);
          if (derived.isPresent()) {
            resolved[a] = derived.get().size();
            derivedNotes.add(p.name() + " axis " + a + " from " + derived.get().why());
          } else {
            resolved[a] = assumable(p, a, dims) ? shapes.resolve(dims[a], a) : refuse(p, a, dims);
            assumed = true;
          }
        }
      }
      inputs.add(p.name() + "=" + Arrays.stream(resolved).mapToObj(Long::toString).collect(Collectors.joining("x")));
      sizes.put(p.name(), resolved);
      for (String t : tensorNames(p)) {
        sizes.putIfAbsent(t, resolved);
      }
    }
    ShapeAssumption compiled = shapes.withInputs(sizes);
    String guessed = checkTensorBound(graph, compiled, inputs).note();
    if (!derivedNotes.isEmpty()) {
      String fromModel = "sized by the model: " + summary(derivedNotes);
      note = note == null ? fromModel : note + "; " + fromModel;
    }
    if (guessed != null && !inputs.isEmpty()) {
      note = note == null ? guessed : note + "; " + guessed;
    }
    return new Resolution(this, compiled, inputs, assumed, note, sizes);
  }

  /** The given sizes by Parameter, each checked against the model's rank and static dimensions. */
  private Map<OpNode, long[]> chosen(Map<String, OpNode> byName, List<OpNode> parameters) {
    Map<OpNode, long[]> chosen = new LinkedHashMap<>();
    for (Map.Entry<String, long[]> e : given.entrySet()) {
      OpNode p = byName.get(e.getKey());
      if (p == null) {
        throw new IllegalArgumentException("--input-shape: the model has no input '" + e.getKey() + "' (inputs: "
            + parameters.stream().map(OpNode::name).collect(Collectors.joining(", ")) + ")");
      }
      long[] model = p.outputs().get(0).dims();
      long[] want = e.getValue();
      if (want.length != model.length) {
        throw new IllegalArgumentException("--input-shape: input '" + e.getKey() + "' has rank " + model.length
            + " in the model, " + want.length + " given");
      }
      for (int a = 0; a < model.length; a++) {
        if (model[a] >= 0 && model[a] != want[a]) {
          throw new IllegalArgumentException("--input-shape: input '" + e.getKey() + "' axis " + a + " is " + model[a]
              + " in the model, " + want[a] + " given");
        }
      }
      chosen.put(p, want);
    }
    return chosen;
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

  private static long refuse(OpNode p, int a, long[] dims) {
    String shape = Arrays.stream(dims).mapToObj(d -> d < 0 ? "?" : Long.toString(d)).collect(Collectors.joining(","));
    throw new IllegalArgumentException("--input-shape: input '" + p.name() + "' is [" + shape + "] and nothing in the "
        + "model fixes the size of its axis " + a + " (not a batch or sequence axis); give it: --input-shape "
        + p.name() + "=" + Arrays.stream(dims).mapToObj(d -> d < 0 ? "N" : Long.toString(d))
            .collect(Collectors.joining(",")));
  }

  /**
   * The IR reader's per-tensor bound ({@link Shapes#MAX_ELEMENTS}) holds for every tensor under the
   * sizes given; returns the tensors' sizes.
   */
  private static TensorShapes checkTensorBound(OpGraph graph, ShapeAssumption shapes, List<String> inputs) {
    TensorShapes sized = TensorShapes.of(graph, shapes);
    for (OpNode n : graph.nodes()) {
      for (int k = 0; k < n.outputs().size(); k++) {
        if (!n.outputs().get(k).isDynamic()) {
          continue; // the reader checked it
        }
        String problem = Shapes.boundProblem(sized.output(n.index(), k));
        if (problem != null) {
          throw new IllegalArgumentException("--input-shape: with " + summary(inputs) + " the output of layer '"
              + n.name() + "' (" + n.type() + ") " + problem);
        }
      }
    }
    return sized;
  }

  private static Set<String> tensorNames(OpNode parameter) {
    Set<String> names = new LinkedHashSet<>();
    String all = parameter.outputs().get(0).names();
    if (all != null) {
      for (String t : all.split(",", -1)) {
        if (!t.isBlank()) {
          names.add(t.trim());
        }
      }
    }
    return names;
  }
}
