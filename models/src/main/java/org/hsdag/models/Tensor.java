package org.hsdag.models;

import java.util.Arrays;
import org.hsdag.ir.ElementType;

/**
 * A value flowing through a model under construction: output {@code output} of node {@code node},
 * with its element type and static shape. Handed out by {@link IrBuilder} and passed back as op
 * inputs, so model code never deals with port ids.
 *
 */
public final class Tensor {
  private final int node;
  private final int output;
  private final ElementType type;
  private final long[] dims;

  /**
   * @param node dense node index in the graph being built
   * @param output position of the output port on that node
   * @param type element type of the tensor
   * @param dims static shape, outermost first; empty for a scalar
   */
  public Tensor(int node, int output, ElementType type, long[] dims) {
    dims = dims.clone();
    this.node = node;
    this.output = output;
    this.type = type;
    this.dims = dims;
  }

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

  public int node() {
    return node;
  }

  public int output() {
    return output;
  }

  public ElementType type() {
    return type;
  }
}
