package org.hsdag.gnn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.ToDoubleFunction;

/** Dense double-precision reference maths and numerical gradients for the layer tests. */
final class Ref {
  private Ref() {}

  /** (r × k) · (k × c), row-major. */
  static double[] matmul(double[] a, double[] b, int r, int k, int c) {
    double[] out = new double[r * c];
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < c; j++) {
        double s = 0;
        for (int t = 0; t < k; t++) {
          s += a[i * k + t] * b[t * c + j];
        }
        out[i * c + j] = s;
      }
    }
    return out;
  }

  static double[] addRow(double[] a, double[] bias, int r, int c) {
    double[] out = a.clone();
    for (int i = 0; i < r; i++) {
      for (int j = 0; j < c; j++) {
        out[i * c + j] += bias[j];
      }
    }
    return out;
  }

  static double[] relu(double[] a) {
    double[] out = new double[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = Math.max(0, a[i]);
    }
    return out;
  }

  static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  static double[] d(float[] f) {
    double[] out = new double[f.length];
    for (int i = 0; i < f.length; i++) {
      out[i] = f[i];
    }
    return out;
  }

  static double[] slice(double[] a, int from, int len) {
    double[] out = new double[len];
    System.arraycopy(a, from, out, 0, len);
    return out;
  }

  static double[] concat(double[]... parts) {
    int n = 0;
    for (double[] p : parts) {
      n += p.length;
    }
    double[] out = new double[n];
    int o = 0;
    for (double[] p : parts) {
      System.arraycopy(p, 0, out, o, p.length);
      o += p.length;
    }
    return out;
  }

  /** Central-difference gradient of {@code f} at {@code x}. */
  static double[] numericalGradient(ToDoubleFunction<double[]> f, double[] x) {
    double h = 1e-6;
    double[] g = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double[] p = x.clone();
      double[] m = x.clone();
      p[i] += h;
      m[i] -= h;
      g[i] = (f.applyAsDouble(p) - f.applyAsDouble(m)) / (2 * h);
    }
    return g;
  }

  static void assertClose(double[] expected, float[] actual, double tol, String what) {
    assertEquals(expected.length, actual.length, what + ": length");
    for (int i = 0; i < expected.length; i++) {
      assertEquals(expected[i], actual[i], tol * Math.max(1, Math.abs(expected[i])), what + "[" + i + "]");
    }
  }

  /** Deterministic pseudo-random values in [-1, 1). */
  static float[] values(long seed, int n) {
    java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (float) (r.nextDouble() * 2 - 1);
    }
    return v;
  }
}
