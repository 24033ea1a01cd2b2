package org.hsdag.cost;

/**
 * Concrete sizes the cost model substitutes for dynamic ({@code ?}, -1) dimensions: axis 0 is the
 * batch, every other dynamic axis a sequence length. Transformer IRs exported with {@code [?,?]}
 * inputs thus cost as {@code [batch, sequence]}; attention scores {@code [?,12,?,?]} as
 * {@code [batch,12,sequence,sequence]}.
 *
 * <p>The default is the HSDAG paper's measurement setting: batch 1 and 8 tokens (its BERT runs
 * were timed on the tokenised sentence "Hello, my dog is cute": {@code [CLS]} + 6 tokens +
 * {@code [SEP]}; see {@code notes/placement-systems.md} §1.2). The {@code paper} profile is
 * calibrated at this setting; pass a longer sequence for other workloads.
 *
 * @param batch size used for a dynamic axis 0
 * @param sequence size used for any other dynamic axis
 */
public record ShapeAssumption(long batch, long sequence) {
  /** Batch 1, sequence 8 (the paper's BERT input). */
  public static final ShapeAssumption DEFAULT = new ShapeAssumption(1, 8);

  public ShapeAssumption {
    if (batch < 1 || sequence < 1) {
      throw new IllegalArgumentException("Expected batch >= 1 and sequence >= 1 (got " + batch + ", " + sequence + ")");
    }
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
