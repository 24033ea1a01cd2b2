package org.hsdag.plan;

/** Small dense linear systems, as the ridge fits of measured latencies need. */
public final class LinearSystems {
  private LinearSystems() {}

  /**
   * Solves the augmented {@code n x (n+1)} system {@code a} (overwritten) by Gaussian elimination
   * with partial pivoting; an unknown whose pivot is exactly zero gets {@code zeroPivotValue}.
   */
  public static double[] solve(double[][] a, int n, double zeroPivotValue) {
    for (int c = 0; c < n; c++) {
      int pivot = c;
      for (int r = c + 1; r < n; r++) {
        if (Math.abs(a[r][c]) > Math.abs(a[pivot][c])) {
          pivot = r;
        }
      }
      double[] tmp = a[c];
      a[c] = a[pivot];
      a[pivot] = tmp;
      if (a[c][c] == 0) {
        continue;
      }
      for (int r = c + 1; r < n; r++) {
        double f = a[r][c] / a[c][c];
        if (f != 0) {
          for (int k = c; k <= n; k++) {
            a[r][k] -= f * a[c][k];
          }
        }
      }
    }
    double[] x = new double[n];
    for (int r = n - 1; r >= 0; r--) {
      double s = a[r][n];
      for (int k = r + 1; k < n; k++) {
        s -= a[r][k] * x[k];
      }
      x[r] = a[r][r] == 0 ? zeroPivotValue : s / a[r][r];
    }
    return x;
  }
}
