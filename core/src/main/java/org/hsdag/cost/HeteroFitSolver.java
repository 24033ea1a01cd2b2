package org.hsdag.cost;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@link HeteroFit}'s solver: bounded least squares in relative error (kernel scales within their
 * bounds, every cost >= 0), made robust to outlying measurements by Huber weights. A designed run
 * timed while another process took the cores is far off the rest; an ordinary least-squares fit
 * bends every cost towards it, and the model then differs from one build to the next. Stateless.
 */
final class HeteroFitSolver {
  /** Cost parameters are enumerated exactly up to this many (2^n active sets). */
  private static final int MAX_ENUMERATED = 13;

  private HeteroFitSolver() {}

  /** Huber's constant, in robust standard deviations of the relative residuals (95 % efficient on normal noise). */
  static final double HUBER_K = 1.345;
  /** Reweighting rounds at most (it settles in a few). */
  private static final int IRLS_ROUNDS = 10;
  /**
   * A spread below this (3 %) is noise any timing has: residuals within it keep their full weight (a fit
   * with few more measurements than parameters leaves residuals smaller than the noise).
   */
  private static final double MIN_SPREAD = 0.03;

  /**
   * The fit with Huber weights by iteratively reweighted least squares: a measurement whose
   * relative residual is beyond {@link #HUBER_K} robust standard deviations (1.4826 x the median
   * absolute residual) weighs the less the further it is.
   */
  static double[] robust(double[][] x, double[] y, int p, int dn) {
    double[] w = new double[y.length];
    Arrays.fill(w, 1);
    double[] theta = solve(x, y, w, p, dn);
    for (int round = 0; round < IRLS_ROUNDS; round++) {
      double[] r = relativeResiduals(x, y, theta);
      double[] abs = Arrays.stream(r).map(Math::abs).sorted().toArray();
      double spread = Math.max(MIN_SPREAD, 1.4826 * abs[abs.length / 2]);
      boolean changed = false;
      for (int k = 0; k < y.length; k++) {
        double next = Math.abs(r[k]) <= HUBER_K * spread ? 1 : HUBER_K * spread / Math.abs(r[k]);
        changed |= Math.abs(next - w[k]) > 1e-3;
        w[k] = next;
      }
      if (!changed) {
        break;
      }
      theta = solve(x, y, w, p, dn);
    }
    return theta;
  }

  /** Predicted / measured - 1 of each measurement. */
  static double[] relativeResiduals(double[][] x, double[] y, double[] theta) {
    double[] r = new double[y.length];
    for (int k = 0; k < y.length; k++) {
      double pred = 0;
      for (int j = 0; j < theta.length; j++) {
        pred += x[k][j] * theta[j];
      }
      r[k] = pred / y[k] - 1;
    }
    return r;
  }

  /** Weighted bounded least squares in relative error ({@code w}: each measurement's weight). */
  static double[] solve(double[][] x, double[] y, double[] w, int p, int dn) {
    // Relative error: each row divided by its target; each column scaled to at most 1 (bytes and µs differ by 1e6).
    double[][] a = new double[x.length][p];
    double[] b = new double[x.length];
    double[] col = new double[p];
    for (int k = 0; k < x.length; k++) {
      for (int j = 0; j < p; j++) {
        a[k][j] = x[k][j] / y[k] * Math.sqrt(w[k]);
        col[j] = Math.max(col[j], Math.abs(a[k][j]));
      }
      b[k] = Math.sqrt(w[k]);
    }
    boolean[] used = new boolean[p];
    for (int j = 0; j < p; j++) {
      used[j] = col[j] > 0;
      for (double[] row : a) {
        row[j] = used[j] ? row[j] / col[j] : 0;
      }
    }
    double[] fixed = new double[p];
    Arrays.fill(fixed, Double.NaN);
    for (int d = 0; d < dn; d++) {
      if (!used[d]) {
        fixed[d] = 1; // a device no measurement ran: its kernels stay as profiled
      }
    }
    double[] theta = unscaled(best(a, b, used, fixed, dn), col);
    boolean clamped = false;
    for (int d = 0; d < dn; d++) {
      if (Double.isNaN(fixed[d]) && (theta[d] < HeteroFit.MIN_KERNEL_SCALE || theta[d] > HeteroFit.MAX_KERNEL_SCALE)) {
        fixed[d] = Math.max(HeteroFit.MIN_KERNEL_SCALE, Math.min(HeteroFit.MAX_KERNEL_SCALE, theta[d])) * col[d];
        clamped = true;
      }
    }
    return clamped ? unscaled(best(a, b, used, fixed, dn), col) : theta;
  }

  /** Parameters of the column-scaled problem in the original units (a column never used keeps its value). */
  private static double[] unscaled(double[] theta, double[] col) {
    double[] t = theta.clone();
    for (int j = 0; j < t.length; j++) {
      if (col[j] > 0) {
        t[j] /= col[j];
      }
    }
    return t;
  }

  /** The least-squares solution over every active set of the cost parameters (>= 0), kernel scales free. */
  private static double[] best(double[][] a, double[] b, boolean[] used, double[] fixed, int dn) {
    int p = used.length;
    List<Integer> costs = new ArrayList<>();
    for (int j = dn; j < p; j++) {
      if (used[j]) {
        costs.add(j);
      }
    }
    // Too many to enumerate: only the start and request costs are fitted, copies stay 0.
    if (costs.size() > MAX_ENUMERATED) {
      costs.removeIf(j -> j >= 2 * dn && j < 4 * dn);
    }
    double bestErr = Double.POSITIVE_INFINITY;
    double[] bestTheta = null;
    for (int mask = 0; mask < 1 << costs.size(); mask++) {
      boolean[] active = new boolean[p];
      for (int d = 0; d < dn; d++) {
        active[d] = used[d] && Double.isNaN(fixed[d]);
      }
      for (int c = 0; c < costs.size(); c++) {
        active[costs.get(c)] = (mask & 1 << c) != 0;
      }
      double[] theta = leastSquares(a, b, active, fixed);
      if (theta == null || !feasible(theta, dn)) {
        continue;
      }
      double err = residual(a, b, theta);
      if (err < bestErr - 1e-12) {
        bestErr = err;
        bestTheta = theta;
      }
    }
    if (bestTheta == null) {
      bestTheta = new double[p];
      for (int d = 0; d < dn; d++) {
        bestTheta[d] = Double.isNaN(fixed[d]) ? 1 : fixed[d];
      }
    }
    return bestTheta;
  }

  private static boolean feasible(double[] theta, int dn) {
    for (int j = 0; j < theta.length; j++) {
      if (!Double.isFinite(theta[j]) || (j < dn ? theta[j] <= 0 : theta[j] < 0)) {
        return false;
      }
    }
    return true;
  }

  private static double residual(double[][] a, double[] b, double[] theta) {
    double s = 0;
    for (int k = 0; k < a.length; k++) {
      double r = b[k];
      for (int j = 0; j < theta.length; j++) {
        r -= a[k][j] * theta[j];
      }
      s += r * r;
    }
    return s;
  }

  /** Least squares over the active parameters, fixed ones at their value (NaN fixed: 0), others 0; null if singular. */
  static double[] leastSquares(double[][] a, double[] b, boolean[] active, double[] fixed) {
    int p = active.length;
    int[] idx = new int[p];
    int m = 0;
    for (int j = 0; j < p; j++) {
      if (active[j]) {
        idx[m++] = j;
      }
    }
    double[] theta = new double[p];
    for (int j = 0; j < p; j++) {
      theta[j] = !active[j] && !Double.isNaN(fixed[j]) ? fixed[j] : 0;
    }
    double[][] n = new double[m][m + 1];
    for (int k = 0; k < a.length; k++) {
      double r = b[k];
      for (int j = 0; j < p; j++) {
        if (!active[j]) {
          r -= a[k][j] * theta[j];
        }
      }
      for (int u = 0; u < m; u++) {
        for (int v = 0; v < m; v++) {
          n[u][v] += a[k][idx[u]] * a[k][idx[v]];
        }
        n[u][m] += a[k][idx[u]] * r;
      }
    }
    double[] sol = gauss(n, m);
    if (sol == null) {
      return null;
    }
    for (int u = 0; u < m; u++) {
      theta[idx[u]] = sol[u];
    }
    return theta;
  }

  /** Gaussian elimination with partial pivoting of an augmented m x (m+1) matrix; null when singular. */
  private static double[] gauss(double[][] n, int m) {
    double norm = 0;
    for (int i = 0; i < m; i++) {
      norm = Math.max(norm, Math.abs(n[i][i]));
    }
    for (int c = 0; c < m; c++) {
      int piv = c;
      for (int r = c + 1; r < m; r++) {
        if (Math.abs(n[r][c]) > Math.abs(n[piv][c])) {
          piv = r;
        }
      }
      if (Math.abs(n[piv][c]) <= 1e-12 * Math.max(norm, 1e-300)) {
        return null;
      }
      double[] t = n[c];
      n[c] = n[piv];
      n[piv] = t;
      for (int r = c + 1; r < m; r++) {
        double f = n[r][c] / n[c][c];
        for (int k = c; k <= m; k++) {
          n[r][k] -= f * n[c][k];
        }
      }
    }
    double[] s = new double[m];
    for (int r = m - 1; r >= 0; r--) {
      double v = n[r][m];
      for (int k = r + 1; k < m; k++) {
        v -= n[r][k] * s[k];
      }
      s[r] = v / n[r][r];
    }
    return s;
  }
}
