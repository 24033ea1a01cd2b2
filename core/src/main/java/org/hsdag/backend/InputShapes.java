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
import org.hsdag.ir.InputAxes;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;
import org.hsdag.ir.Shapes;

/**
 * What the user said about the shapes of a model's dynamic inputs ({@code --input-shape
 * input_ids=1,128}, {@code --sequence-length}, {@code --past-length}), resolved per input: a size
 * given for the input (by its Parameter's friendly name, one of its tensor names, or a name
 * pattern with {@code *} that sizes a whole family such as {@code past_key_values.*}); else per
 * axis, a size the model fixes ({@link InputAxes}: hidden sizes from the consumers); else the
 * batch for axis 0, the past length for a KV-cache axis (one the input is concatenated along),
 * the sequence length for the others. The simulator's {@link ShapeAssumption} propagates these
 * per-input sizes; its single batch and sequence serve only tensors no shape rule reaches.
 *
 * @param given static shapes by input name or pattern, in the order given (empty: assume the default)
 * @param sequence the length of a sequence axis nothing else sizes (0: the default)
 * @param past the length of a KV-cache axis nothing else sizes (0: the sequence length)
 */
public record InputShapes(Map<String, long[]> given, long sequence, long past) {
  public static final InputShapes NONE = new InputShapes(Map.of());

  public InputShapes {
    Map<String, long[]> copy = new LinkedHashMap<>();
    given.forEach((k, v) -> copy.put(Objects.requireNonNull(k), v.clone()));
    given = java.util.Collections.unmodifiableMap(copy);
    if (sequence < 0 || past < 0) {
      throw new IllegalArgumentException("lengths must be positive (got sequence " + sequence + ", past " + past + ")");
    }
  }

  /** Sizes by input name or name pattern ({@code past_key_values.*}); lengths from the defaults. */
  public InputShapes(Map<String, long[]> given) {
    this(given, 0, 0);
  }

  /** The same sizes with the length of every sequence axis and of every KV-cache axis nothing else sizes (0: default). */
  public InputShapes withLengths(long sequenceLength, long pastLength) {
    return new InputShapes(given, sequenceLength, pastLength);
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
   * @param inputs each dynamic input as {@code name=1x8} by {@link #inputName} (what {@code --input-shape} and
   *     OpenVINO take back), in model order (empty for a static model)
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

    /**
     * Why the simulator cannot cost {@code graph} at these sizes, or null: its per-tensor bound
     * ({@link Shapes#MAX_ELEMENTS}, the IR reader's) keeps every byte count of its cost model exact.
     * A real runtime judges the sizes itself (its shape inference, then the memory they need).
     */
    public String simulatorBoundProblem(OpGraph graph) {
      TensorShapes sized = TensorShapes.of(graph, shapes);
      for (OpNode n : graph.nodes()) {
        for (int k = 0; k < n.outputs().size(); k++) {
          if (!n.outputs().get(k).isDynamic()) {
            continue; // the reader checked it
          }
          String problem = Shapes.boundProblem(sized.output(n.index(), k));
          if (problem != null) {
            return "--input-shape: with " + summary(inputs) + " the output of layer '" + n.name() + "' (" + n.type()
                + ") " + problem + " (the simulator's bound)";
          }
        }
      }
      return null;
    }

    /** The line to print once for a dynamic model, or null for a static one. */
    public String notice() {
      if (inputs.isEmpty()) {
        return null;
      }
      String what = summary(inputs);
      String line = assumed ? "the model has dynamic inputs; assumed " + what + " (set --input-shape NAME=D1,D2,..., "
          + "--sequence-length N, --past-length N)"
          : "dynamic inputs measured as " + what;
      return note == null ? line : line + "; " + note;
    }
  }

  private static final int INPUTS_NAMED = 3;

  /** The first few inputs by name, then how many more (a model may have hundreds). */
  static String summary(List<String> inputs) {
    if (inputs.size() <= INPUTS_NAMED + 1) {
      return String.join(", ", inputs);
    }
    return String.join(", ", inputs.subList(0, INPUTS_NAMED)) + " and " + (inputs.size() - INPUTS_NAMED) + " more";
  }

  /**
   * Resolves the shapes for {@code graph}.
   *
   * @throws IllegalArgumentException naming the input for an unknown name, a rank or static
   *     dimension that contradicts the model, or two different batch sizes; naming every input
   *     with an axis nothing sizes, at once
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
        // A hidden size the model fixes is not a sequence length, whoever gave it.
        if (model[a] < 0 && (a == 0 || InputAxes.derive(graph, c.getKey().index(), a).isEmpty())) {
          (a == 0 ? batches : sequences).add(c.getValue()[a]);
        }
      }
    }
    if (batches.size() > 1) {
      throw new IllegalArgumentException("--input-shape: the simulator needs one batch size, got " + batches);
    }
    long batch = batches.isEmpty() ? ShapeAssumption.DEFAULT.batch() : batches.iterator().next();
    long fallback = sequence > 0 ? sequence : ShapeAssumption.DEFAULT.sequence();
    long seq = sequences.isEmpty() ? fallback : ((TreeSet<Long>) sequences).last();
    String note = sequences.size() > 1 ? "tensors no shape rule reaches take one length, the simulator uses the "
        + "largest, " + seq + " (given " + sequences + ")" : null;
    ShapeAssumption shapes = new ShapeAssumption(batch, seq);
    InputSizing sizing = new InputSizing(graph, chosen, shapes.batch(), fallback, past > 0 ? past : fallback);
    for (OpNode p : parameters) {
      if (p.outputs().get(0).isDynamic()) {
        sizing.size(p, tensorNames(p));
      }
    }
    sizing.refuseUnsized();
    ShapeAssumption compiled = shapes.withInputs(sizing.sizes);
    String guessed = TensorShapes.of(graph, compiled).note();
    for (String more : new String[] {sizing.familyNote(), sizing.derivedNotes.isEmpty() ? null
        : "sized by the model: " + summary(sizing.derivedNotes), sizing.inputs.isEmpty() ? null : guessed}) {
      if (more != null) {
        note = note == null ? more : note + "; " + more;
      }
    }
    return new Resolution(this, compiled, sizing.inputs, sizing.assumed, note, sizing.sizes);
  }

  /** The given sizes by Parameter, each checked against the model's rank and static dimensions. */
  private Map<OpNode, long[]> chosen(Map<String, OpNode> byName, List<OpNode> parameters) {
    Map<OpNode, long[]> chosen = new LinkedHashMap<>();
    for (Map.Entry<String, long[]> e : given.entrySet()) {
      List<OpNode> matched = matching(e.getKey(), byName);
      if (matched.isEmpty()) {
        throw new IllegalArgumentException("--input-shape: the model has no input '" + e.getKey() + "' (inputs: "
            + summary(parameters.stream().map(InputShapes::inputName).toList()) + ")");
      }
      for (OpNode p : matched) {
        if (!chosen.containsKey(p) || !e.getKey().contains("*")) {
          chosen.put(p, checked(e.getKey(), p, e.getValue()));
        }
      }
    }
    return chosen;
  }

  /** The inputs {@code key} names: one by name, or all whose names match a pattern with {@code *}. */
  private static List<OpNode> matching(String key, Map<String, OpNode> byName) {
    if (!key.contains("*")) {
      OpNode p = byName.get(key);
      return p == null ? List.of() : List.of(p);
    }
    java.util.regex.Pattern glob = java.util.regex.Pattern.compile(
        Arrays.stream(key.split("\\*", -1)).map(java.util.regex.Pattern::quote).collect(Collectors.joining(".*")));
    return byName.entrySet().stream().filter(e -> glob.matcher(e.getKey()).matches()).map(Map.Entry::getValue)
        .distinct().toList();
  }

  /** {@code want} for Parameter {@code p}, checked against the model's rank and static dims. */
  private static long[] checked(String key, OpNode p, long[] want) {
    String who = key.contains("*") ? p.name() : key;
    long[] model = p.outputs().get(0).dims();
    if (want.length != model.length) {
      throw new IllegalArgumentException("--input-shape: input '" + who + "' has rank " + model.length
          + " in the model, " + want.length + " given");
    }
    for (int a = 0; a < model.length; a++) {
      if (model[a] >= 0 && model[a] != want[a]) {
        throw new IllegalArgumentException("--input-shape: input '" + who + "' axis " + a + " is " + model[a]
            + " in the model, " + want[a] + " given");
      }
    }
    return want;
  }

  /**
   * The name an input is announced by: its first tensor name, the name OpenVINO's {@code
   * Model.reshape} and inference requests take (and {@code --input-shape} too), else its op's
   * friendly name when its tensor has none.
   */
  public static String inputName(OpNode parameter) {
    Set<String> tensors = tensorNames(parameter);
    return tensors.isEmpty() ? parameter.name() : tensors.iterator().next();
  }

  static Set<String> tensorNames(OpNode parameter) {
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
