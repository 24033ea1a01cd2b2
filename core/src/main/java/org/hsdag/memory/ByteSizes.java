package org.hsdag.memory;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes as users write them ({@code 8GiB}, {@code 512MB}, {@code 1.5G}) and as reports print them. */
public final class ByteSizes {
  private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([KMGT]?)(I?)(B?)",
      Pattern.CASE_INSENSITIVE);

  private ByteSizes() {}

  /**
   * Parses a size: a number with an optional unit; {@code K/M/G/T} with an {@code i} are powers of
   * 1024, without it powers of 1000 ({@code GB} = 10^9, {@code GiB} = 2^30); a bare {@code G} is GiB, as
   * in {@code -Xmx}. No unit means bytes.
   *
   * @throws IllegalArgumentException with a one-line reason for anything else or a size of 0
   */
  public static long parse(String text) {
    Matcher m = SIZE.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("bad size '" + text + "' (examples: 8GiB, 512MB, 1.5G, 1000000)");
    }
    String unit = m.group(2).toUpperCase(Locale.ROOT);
    boolean binary = !m.group(3).isEmpty() || (!unit.isEmpty() && m.group(4).isEmpty());
    if (!m.group(3).isEmpty() && unit.isEmpty()) {
      throw new IllegalArgumentException("bad size '" + text + "' (examples: 8GiB, 512MB, 1.5G, 1000000)");
    }
    int power = unit.isEmpty() ? 0 : "KMGT".indexOf(unit) + 1;
    double bytes = Double.parseDouble(m.group(1)) * Math.pow(binary ? 1024 : 1000, power);
    if (!(bytes >= 1) || bytes > Long.MAX_VALUE / 2.0) {
      throw new IllegalArgumentException("size '" + text + "' is out of range");
    }
    return Math.round(bytes);
  }

  /** {@code bytes} in the largest binary unit that keeps a leading digit, e.g. {@code 16.49 GiB}. */
  public static String format(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (Math.abs(v) >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.2f %s", v, units[u]);
  }
}
