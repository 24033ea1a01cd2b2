package org.hsdag.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import picocli.CommandLine.Option;

/**
 * The {@code --protocol} option shared by commands that measure: how many warm-up and timed runs
 * each placement gets and how the samples reduce to one latency.
 */
public final class ProtocolOptions {
  private static final Pattern SPEC = Pattern.compile("(\\d+)\\+(\\d+)[: ]\\s*([a-z-]+?)(?:-(\\d+(?:\\.\\d+)?))?");

  @Option(names = "--protocol", paramLabel = "SPEC", defaultValue = "paper",
      description = "Measurement protocol: 'paper' (10 runs, mean of the last 5, as the HSDAG paper) or "
          + "WARMUP+RUNS:STAT with STAT mean-of-last-K, median or trimmed-mean-F, e.g. 2+20:median. Default: ${DEFAULT-VALUE}.")
  String protocol = "paper";

  /** The parsed protocol. */
  public MeasurementProtocol protocol() {
    return parse(protocol);
  }

  /**
   * Parses a protocol spec ({@code paper}, {@code 2+20:median}, {@code 0+10:mean-of-last-5},
   * {@code 1+20:trimmed-mean-0.1}; the {@link MeasurementProtocol#describe()} form is accepted too).
   *
   * @throws UserInputException with the accepted forms when the spec is malformed
   */
  public static MeasurementProtocol parse(String spec) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.equals("paper")) {
      return MeasurementProtocol.PAPER;
    }
    Matcher m = SPEC.matcher(s);
    if (!m.matches()) {
      throw bad(spec);
    }
    int warmup = Integer.parseInt(m.group(1));
    int runs = Integer.parseInt(m.group(2));
    String stat = m.group(3);
    String arg = m.group(4);
    // The protocol's own checks speak of its fields; say it in the spec's syntax.
    if (runs < 1) {
      throw new UserInputException("--protocol " + spec + ": RUNS (in WARMUP+RUNS) must be at least 1");
    }
    if (stat.equals("mean-of-last") && arg != null
        && !(Double.parseDouble(arg) >= 1 && Double.parseDouble(arg) <= runs)) {
      throw new UserInputException(
          "--protocol " + spec + ": K of mean-of-last-K must be between 1 and RUNS (" + runs + ")");
    }
    if (stat.equals("trimmed-mean") && arg != null && !(Double.parseDouble(arg) < 0.5)) {
      throw new UserInputException("--protocol " + spec + ": F of trimmed-mean-F must be at least 0 and below 0.5");
    }
    try {
      return switch (stat) {
        case "median" -> {
          if (arg != null) {
            throw bad(spec);
          }
          yield new MeasurementProtocol(warmup, runs, Statistic.MEDIAN, 1, 0);
        }
        case "mean-of-last" -> new MeasurementProtocol(warmup, runs, Statistic.MEAN_OF_LAST,
            arg == null ? runs : Integer.parseInt(arg), 0);
        case "mean" -> {
          if (arg != null) {
            throw bad(spec);
          }
          yield new MeasurementProtocol(warmup, runs, Statistic.MEAN_OF_LAST, runs, 0);
        }
        case "trimmed-mean" -> new MeasurementProtocol(warmup, runs, Statistic.TRIMMED_MEAN, 1,
            arg == null ? 0.1 : Double.parseDouble(arg));
        default -> throw bad(spec);
      };
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--protocol " + spec + ": " + e.getMessage());
    }
  }

  private static UserInputException bad(String spec) {
    return new UserInputException("--protocol '" + spec + "' is not understood; use paper, or WARMUP+RUNS:STAT with "
        + "STAT mean-of-last-K, mean, median or trimmed-mean-F (e.g. 2+20:median)");
  }
}
