package org.hsdag.ir;

import java.util.Set;
import java.util.function.IntFunction;

/**
 * Sizes of the ops whose output size is data (Range, Broadcast to a computed shape, Tile), for
 * {@link OpShapes}: their shape inputs are evaluated on the model's concrete input sizes.
 */
public final class DataSizedShapes {
  private DataSizedShapes() {}

  /**
   * The values of one graph's shape computations (ShapeOf, Gather, Concat, arithmetic over
   * integer constants), the constants valued as stand-in weights derive them: what sizes a Range
   * over a sequence length or a Broadcast to a computed shape.
   */
  public static final class Values {
    private final ShapeConstants derived;

    private Values(ShapeConstants derived) {
      this.derived = derived;
    }

    /** Derives the constants of {@code graph} (as many seconds as stand-in weights take: call once per graph). */
    public static Values of(OpGraph graph) {
      return new Values(ShapeConstants.derived(graph));
    }

    /**
     * The value of output 0 of {@code node}, each ShapeOf reading {@code shapeOfInput} (the
     * concrete shape of its input, by the ShapeOf's node index); null when not known.
     */
    public long[] value(int node, IntFunction<long[]> shapeOfInput) {
      return derived.evaluate(node, shapeOfInput);
    }
  }

  /**
   * The output of an op whose size is data (Range, Broadcast, Tile) from its inputs' concrete
   * shapes {@code in} and their values {@code value.apply(k)} (null when unknown); null when no
   * rule applies or a value is unknown.
   */
  public static long[] dataSized(OpNode node, long[][] in, IntFunction<long[]> value) {
    return IrDimRules.dataSized(node, in, value);
  }

  /** True for the ops {@link #dataSized} sizes. */
  public static boolean isDataSized(OpNode node) {
    return Set.of("Range", "Broadcast", "Tile").contains(node.type());
  }

}
