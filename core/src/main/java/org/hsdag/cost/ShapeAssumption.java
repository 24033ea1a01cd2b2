package org.hsdag.cost;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Concrete sizes the cost model substitutes for dynamic ({@code ?}, -1) dimensions: the static
 * shape each dynamic model input is compiled at ({@code inputs}, by input name), which {@link
 * TensorShapes} propagates to the tensors the inputs feed; where nothing is known, axis 0 is the
 * batch and every other dynamic axis a sequence length. Transformer IRs exported with {@code [?,?]}
 * inputs thus cost as {@code [batch, sequence]}; attention scores {@code [?,12,?,?]} as
 * {@code [batch,12,sequence,sequence]}.
 *
 * <p>The default is the HSDAG paper's measurement setting: batch 1 and 8 tokens (its BERT runs
 * were timed on the tokenised sentence "Hello, my dog is cute": {@code [CLS]} + 6 tokens +
 * {@code [SEP]}; see {@code notes/placement-systems.md} §1.2). The {@code paper} profile is
 * calibrated at this setting; pass a longer sequence for other workloads.
 *
 * @param batch size used for a dynamic axis 0 nothing else sizes
 * @param sequence size used for any other dynamic axis nothing else sizes
 * @param inputs the static shape of each dynamic input, by its friendly name and tensor names (as
 *     {@code InputShapes.Resolution#sizes}: what the real backend compiles); empty: none known
 */
public record ShapeAssumption(long batch, long sequence, Map<String, List<Long>> inputs) {
  /** Batch 1, sequence 8 (the paper's BERT input). */
  public static final ShapeAssumption DEFAULT = new ShapeAssumption(1, 8);

  public ShapeAssumption {
    if (batch < 1 || sequence < 1) {
      throw new IllegalArgumentException("Expected batch >= 1 and sequence >= 1 (got " + batch + ", " + sequence + ")");
    }
    Map<String, List<Long>> copy = new LinkedHashMap<>();
    inputs.forEach((k, v) -> copy.put(Objects.requireNonNull(k), List.copyOf(v)));
    inputs = Collections.unmodifiableMap(copy);
  }

  /** No input sizes known: every dynamic axis from {@code batch} and {@code sequence}. */
  public ShapeAssumption(long batch, long sequence) {
    this(batch, sequence, Map.of());
  }

  /** The same assumption with the static shapes the dynamic inputs are compiled at, by input name. */
  public ShapeAssumption withInputs(Map<String, long[]> sizes) {
    Map<String, List<Long>> m = new LinkedHashMap<>();
    sizes.forEach((k, v) -> m.put(k, Arrays.stream(v).boxed().toList()));
    return new ShapeAssumption(batch, sequence, m);
  }

  /** The compiled shape of the input named {@code name}, or null when none was given. */
  public long[] inputSize(String name) {
    List<Long> s = inputs.get(name);
    return s == null ? null : s.stream().mapToLong(Long::longValue).toArray();
  }

  /** The concrete size of axis {@code axis} whose IR size is {@code dim}. */
  public long resolve(long dim, int axis) {
    if (dim >= 0) {
      return dim;
    }
    return axis == 0 ? batch : sequence;
  }

  /** Element count of {@code dims} with dynamic axes resolved. */
  public long elements(long[] dims) {
    long n = 1;
    for (int a = 0; a < dims.length; a++) {
      n *= resolve(dims[a], a);
    }
    return n;
  }

  @Override
  public String toString() {
    return "batch " + batch + ", sequence " + sequence;
  }
}
