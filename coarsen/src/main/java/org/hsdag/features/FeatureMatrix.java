package org.hsdag.features;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A dense row-major float matrix with named columns: one row per graph node or cluster. Immutable
 * (arrays are copied in and out).
 *
 */
public final class FeatureMatrix {
  private final List<String> columns;
  private final int rows;
  private final float[] values;

  /**
   * @param columns column names, e.g. {@code op:Convolution}, {@code in:2}, {@code fractal_dim}
   * @param rows number of rows
   * @param values {@code rows × columns.size()} values, row-major
   */
  public FeatureMatrix(List<String> columns, int rows, float[] values) {
    columns = List.copyOf(columns);
    if (rows < 0) {
      throw new IllegalArgumentException("rows must be >= 0 (got " + rows + ")");
    }
    if ((long) rows * columns.size() != values.length) {
      throw new IllegalArgumentException(
          "expected " + rows + " x " + columns.size() + " values (got " + values.length + ")");
    }
    values = values.clone();
    this.columns = columns;
    this.rows = rows;
    this.values = values;
  }

  public int columnCount() {
    return columns.size();
  }

  public float get(int row, int col) {
    Objects.checkIndex(row, rows);
    Objects.checkIndex(col, columns.size());
    return values[row * columns.size() + col];
  }

  /** Index of a column by name, or -1. */
  public int columnIndex(String name) {
    return columns.indexOf(name);
  }

  /** A copy of one row. */
  public float[] row(int row) {
    Objects.checkIndex(row, rows);
    int w = columns.size();
    return Arrays.copyOfRange(values, row * w, row * w + w);
  }

  public float[] values() {
    return values.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeatureMatrix m && rows == m.rows && columns.equals(m.columns)
        && Arrays.equals(values, m.values);
  }

  @Override
  public int hashCode() {
    return Objects.hash(columns, rows, Arrays.hashCode(values));
  }

  @Override
  public String toString() {
    return "FeatureMatrix[" + rows + " x " + columns.size() + "]";
  }

  public List<String> columns() {
    return columns;
  }

  public int rows() {
    return rows;
  }
}
