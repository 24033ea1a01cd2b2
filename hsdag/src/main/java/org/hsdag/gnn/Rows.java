package org.hsdag.gnn;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.SparseFormat;

/**
 * Row gathers {@code x[idx]} through {@code torch.embedding}, whose backward is bitwise
 * reproducible with several threads (unlike {@code get(NDIndex)} and {@code take}, notes/djl.md §7).
 */
public final class Rows {
  private Rows() {}

  /** {@code x[idx]} for an int64 index vector; differentiable with respect to {@code x}. */
  public static NDArray gather(NDArray x, NDArray idx) {
    return x.getNDArrayInternal().embedding(idx, x, SparseFormat.DENSE).head();
  }
}
