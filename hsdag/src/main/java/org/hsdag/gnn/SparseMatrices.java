package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.pytorch.engine.PtNDArray;
import ai.djl.pytorch.jni.JniUtils;

/**
 * Builds constant sparse COO matrices safely. {@code NDManager.createCoo} in the PyTorch engine
 * aliases Java direct buffers that are freed later (use-after-free, notes/djl.md pitfall 1), so
 * indices and values are cloned into torch-owned storage before the sparse tensor is made.
 * Sparse × dense products are differentiable with respect to the dense operand only.
 */
public final class SparseMatrices {
  private SparseMatrices() {}

  /**
   * A {@code rows × cols} float32 COO matrix with {@code values[k]} at ({@code row[k]}, {@code
   * col[k]}); duplicate coordinates add up when multiplied.
   */
  public static NDArray coo(NDManager manager, long rows, long cols, int[] row, int[] col, float[] values) {
    try (NDArray v = manager.create(values)) {
      return coo(manager, rows, cols, row, col, v, DataType.FLOAT32);
    }
  }

  /** The same with double values, stored as {@code dataType}. */
  public static NDArray coo(
      NDManager manager, long rows, long cols, int[] row, int[] col, double[] values, DataType dataType) {
    try (NDArray v = manager.create(values)) {
      return coo(manager, rows, cols, row, col, v, dataType);
    }
  }

  private static NDArray coo(
      NDManager manager, long rows, long cols, int[] row, int[] col, NDArray values, DataType dataType) {
    int nnz = Math.toIntExact(values.size());
    if (row.length != nnz || col.length != nnz) {
      throw new IllegalArgumentException(
          "Expected equal lengths (got " + row.length + ", " + col.length + ", " + nnz + ")");
    }
    long[] idx = new long[2 * nnz];
    for (int k = 0; k < nnz; k++) {
      if (row[k] < 0 || row[k] >= rows || col[k] < 0 || col[k] >= cols) {
        throw new IllegalArgumentException(
            "entry " + k + " (" + row[k] + "," + col[k] + ") outside " + rows + "x" + cols);
      }
      idx[k] = row[k];
      idx[nnz + k] = col[k];
    }
    try (NDArray i = manager.create(idx, new Shape(2, nnz))) {
      PtNDArray it = (PtNDArray) i.duplicate();
      // toType aliases when the type already matches (torch's to() without copy), so clone then.
      PtNDArray vt = (PtNDArray) (values.getDataType() == dataType ? values.duplicate()
          : values.toType(dataType, false));
      NDArray sparse = JniUtils.createSparseCoo(it, vt, new Shape(rows, cols));
      it.close();
      vt.close();
      return sparse;
    }
  }
}
