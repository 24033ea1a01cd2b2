package org.hsdag.ir;

/** Parsing of IR shape and list attributes ({@code "1, 3, 224, 224"}, {@code "?,?"}, {@code "1..8"}). */
public final class Shapes {
  /**
   * The most elements hsdag accepts in one tensor: 2^36 (about 6.9·10^10). The largest tensors of
   * real models are weight tables of a few 10^9 elements (a 256k-token vocabulary times a 16k
   * hidden size is 4.3·10^9); one of 2^36 elements would take 128 GiB even in FP16. A larger
   * count is a damaged IR, and bounding it keeps every byte count of the cost model exact in a long.
   */
  public static final long MAX_ELEMENTS = 1L << 36;

  private Shapes() {}

  /** Null when the static dimensions of {@code dims} multiply to at most {@link #MAX_ELEMENTS}, else why not. */
  public static String boundProblem(long[] dims) {
    long n = 1;
    for (long d : dims) {
      if (d > 0) {
        if (d > MAX_ELEMENTS / n) {
          return "has more than 2^36 elements (" + format(dims) + "), more than any real tensor";
        }
        n *= d;
      }
    }
    return null;
  }

  /**
   * Parses a shape attribute; dynamic or interval dimensions become -1.
   *
   * @return the dims, an empty array for a scalar, or null for a dynamic rank ({@code ...})
   */
  public static long[] parseShape(String text) {
    String t = text.trim();
    if (t.contains("...")) {
      return null;
    }
    if (t.isEmpty()) {
      return new long[0];
    }
    String[] parts = t.split(",", -1);
    long[] dims = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      String p = parts[i].trim();
      if (p.equals("?") || p.equals("-1") || p.contains("..")) {
        dims[i] = -1;
      } else {
        try {
          dims[i] = Long.parseLong(p);
        } catch (NumberFormatException e) {
          throw new IrException("bad dimension '" + p + "' in shape '" + text + "'");
        }
        if (dims[i] < 0) {
          throw new IrException("negative dimension in shape '" + text + "'");
        }
      }
    }
    return dims;
  }

  /** Parses a comma-separated integer list attribute ({@code "2, 2"}); null or empty gives an empty array. */
  public static long[] parseLongs(String text) {
    if (text == null || text.isBlank()) {
      return new long[0];
    }
    // By hand rather than split/trim/parseLong: the reader calls this for every convolution and pooling.
    // Trailing empty items are dropped, as String.split drops them.
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == ',' || Character.isWhitespace(text.charAt(end - 1)))) {
      end--;
    }
    if (end == 0) {
      return new long[0];
    }
    int n = 1;
    for (int i = 0; i < end; i++) {
      if (text.charAt(i) == ',') {
        n++;
      }
    }
    long[] out = new long[n];
    int k = 0;
    int start = 0;
    for (int i = 0; i <= end; i++) {
      if (i == end || text.charAt(i) == ',') {
        out[k++] = parseLong(text, start, i);
        start = i + 1;
      }
    }
    return out;
  }

  private static long parseLong(String text, int from, int to) {
    while (from < to && Character.isWhitespace(text.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(text.charAt(to - 1))) {
      to--;
    }
    try {
      return Long.parseLong(text, from, to, 10);
    } catch (NumberFormatException e) {
      throw new IrException("bad integer '" + text.substring(from, to) + "' in list '" + text + "'");
    }
  }

  /** Formats dims the way current serializers do: {@code "1, 3, 224, 224"}. */
  public static String format(long[] dims) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < dims.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(dims[i] < 0 ? "?" : Long.toString(dims[i]));
    }
    return sb.toString();
  }

  /** Product of dims, dynamic ones counted as 1. */
  public static long elementCount(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= Math.max(1, d);
    }
    return n;
  }
}
