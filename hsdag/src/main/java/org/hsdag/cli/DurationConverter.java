package org.hsdag.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Parses durations such as {@code 90s}, {@code 10m}, {@code 1h30m}, {@code 45} (seconds) or ISO {@code PT10M}. */
public final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");

  @Override
  public Duration convert(String value) {
    String v = value.trim().toLowerCase(Locale.ROOT);
    if (v.startsWith("pt")) {
      return Duration.parse(v.toUpperCase(Locale.ROOT));
    }
    if (v.matches("\\d+")) {
      return Duration.ofSeconds(Long.parseLong(v));
    }
    Matcher m = PART.matcher(v);
    int pos = 0;
    double millis = 0;
    while (m.find()) {
      if (m.start() != pos) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (examples: 90s, 10m, 1h30m)");
      }
      double n = Double.parseDouble(m.group(1));
      millis += switch (m.group(2)) {
        case "h" -> n * 3_600_000;
        case "m" -> n * 60_000;
        case "s" -> n * 1000;
        default -> n;
      };
      pos = m.end();
    }
    if (pos != v.length() || pos == 0) {
      throw new CommandLine.TypeConversionException("'" + value + "' is not a duration (examples: 90s, 10m, 1h30m)");
    }
    return Duration.ofMillis(Math.round(millis));
  }
}
