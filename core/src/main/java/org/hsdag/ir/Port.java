package org.hsdag.ir;

import java.util.Arrays;
import java.util.Objects;

/**
 * One input or output port of a layer.
 *
 */
public final class Port {
  private final int id;
  private final ElementType elementType;
  private final long[] dims;
  private final String names;
  private final String rtInfoXml;

  /**
   * @param id the port id as written in the IR (unique per layer over inputs then outputs)
   * @param elementType the precision; null for v10 input ports that omit it
   * @param dims the shape, outermost first; -1 for a dynamic dimension; empty for a scalar
   * @param names comma-separated tensor names as written, or null
   * @param rtInfoXml the port's {@code <rt_info>} element verbatim, or null
   */
  public Port(int id, ElementType elementType, long[] dims, String names, String rtInfoXml) {
    dims = dims.clone();
    this.id = id;
    this.elementType = elementType;
    this.dims = dims;
    this.names = names;
    this.rtInfoXml = rtInfoXml;
  }

  public long[] dims() {
    return dims.clone();
  }

  public int rank() {
    return dims.length;
  }

  public long dim(int axis) {
    return dims[axis];
  }

  public boolean isDynamic() {
    for (long d : dims) {
      if (d < 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when both ports can describe one tensor: the same rank and, per axis, the same size or a
   * dynamic size on either side.
   */
  public boolean shapeCompatible(Port other) {
    if (dims.length != other.dims.length) {
      return false;
    }
    for (int i = 0; i < dims.length; i++) {
      if (dims[i] != other.dims[i] && dims[i] >= 0 && other.dims[i] >= 0) {
        return false;
      }
    }
    return true;
  }

  /** Number of elements, treating dynamic dimensions as 1. */
  public long elementCount() {
    long n = 1;
    for (long d : dims) {
      n *= Math.max(d, 1);
    }
    return n;
  }

  /** Bytes of the tensor (dynamic dimensions as 1; f32 assumed when the precision is unknown). */
  public long byteSize() {
    ElementType t = elementType == null || elementType.bitWidth() == 0 ? ElementType.F32 : elementType;
    return t.byteSize(elementCount());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Port p
        && id == p.id
        && elementType == p.elementType
        && Arrays.equals(dims, p.dims)
        && Objects.equals(names, p.names)
        && Objects.equals(rtInfoXml, p.rtInfoXml);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, elementType, Arrays.hashCode(dims), names, rtInfoXml);
  }

  @Override
  public String toString() {
    return "Port[" + id + " " + elementType + " " + Arrays.toString(dims) + "]";
  }

  public int id() {
    return id;
  }

  public ElementType elementType() {
    return elementType;
  }

  public String names() {
    return names;
  }

  public String rtInfoXml() {
    return rtInfoXml;
  }
}
