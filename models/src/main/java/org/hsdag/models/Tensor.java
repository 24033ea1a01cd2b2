package org.hsdag.models;

import java.util.Arrays;
import org.hsdag.ir.ElementType;

/**
 * A value flowing through a model under construction: output {@code output} of node {@code node},
 * with its element type and static shape. Handed out by {@link IrBuilder} and passed back as op
 * inputs, so model code never deals with port ids.
 *
 * @param node dense node index in the graph being built
 * @param output position of the output port on that node
 * @param type element type of the tensor
 * @param dims static shape, outermost first; empty for a scalar
 */
@SuppressWarnings("ArrayRecordComponent") // copied in and out and compared by content: an immutable value
public record Tensor(int node, int output, ElementType type, long[] dims) {
  public Tensor {
    dims = dims.clone();
  }

  @Override
  public long[] dims() {
    return dims.clone();
  }

  public int rank() {
    return dims.length;
  }

  /** Dimension {@code axis}; negative axes count from the end. */
  public long dim(int axis) {
    return dims[axis < 0 ? dims.length + axis : axis];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tensor t && node == t.node && output == t.output && type == t.type
        && Arrays.equals(dims, t.dims);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * node + output) + Arrays.hashCode(dims);
  }

  @Override
  public String toString() {
    return "Tensor[" + node + ":" + output + " " + type.irName() + Arrays.toString(dims) + "]";
  }
}
