package org.hsdag.bench.real;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What OpenVINO's Python {@code benchmark_app} (2026.4.1) reports for one run. Its latency figures
 * are over the timed iterations only, after one untimed "first inference"
 * ({@code openvino/tools/benchmark/main.py}, step 10); "Median" is {@code percentile(sorted, 50)},
 * i.e. {@code sorted[ceil(n/2) - 1]}, the lower median ({@code benchmark.py}).
 *
 * @param medianMs the "Median:" line
 * @param averageMs the "Average:" line (arithmetic mean)
 * @param minMs the "Min:" line
 * @param maxMs the "Max:" line
 * @param iterations the "Count:" line
 * @param firstMs the untimed first inference ("First inference took"), NaN if not printed
 */
public record BenchmarkAppRun(double medianMs, double averageMs, double minMs, double maxMs, int iterations,
    double firstMs) {
  private static final Pattern COUNT = Pattern.compile("Count:\\s+(\\d+) iterations");
  private static final Pattern FIRST = Pattern.compile("First inference took ([0-9.]+) ms");

  /**
   * Parses benchmark_app's console log.
   *
   * @throws IllegalArgumentException naming the line that is missing
   */
  public static BenchmarkAppRun parse(String log) {
    Matcher first = FIRST.matcher(log);
    return new BenchmarkAppRun(latency(log, "Median"), latency(log, "Average"), latency(log, "Min"),
        latency(log, "Max"),
        (int) number(COUNT, log, "Count"), first.find() ? Double.parseDouble(first.group(1)) : Double.NaN);
  }

  /** A latency line in ms; benchmark_app switches to "us" when the mean is below 1 ms ({@code main.py}, format_console_latency). */
  private static double latency(String log, String label) {
    // The first such line is the overall latency (per-shape groups, if any, follow it).
    Matcher m = Pattern.compile("\\b" + label + ":\\s+([0-9.]+) (ms|us)").matcher(log);
    if (!m.find()) {
      throw new IllegalArgumentException("benchmark_app printed no '" + label + ":' line");
    }
    double v = Double.parseDouble(m.group(1));
    return m.group(2).equals("us") ? v / 1000 : v;
  }

  private static double number(Pattern p, String log, String label) {
    Matcher m = p.matcher(log);
    if (!m.find()) {
      throw new IllegalArgumentException("benchmark_app printed no '" + label + ":' line");
    }
    return Double.parseDouble(m.group(1));
  }

  /**
   * Runs {@code benchmarkApp -m xml -d device -hint latency -nireq 1 -niter iterations} and parses
   * what it prints.
   *
   * @throws IOException when it cannot start, or exits non-zero (with the end of its output)
   */
  public static BenchmarkAppRun run(Path benchmarkApp, Path xml, String device, int iterations) throws IOException {
    List<String> cmd = new ArrayList<>(
        List.of(benchmarkApp.toString(), "-m", xml.toString(), "-d", device, "-hint", "latency",
            "-nireq", "1", "-niter", Integer.toString(iterations)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int code;
    try {
      code = p.waitFor();
    } catch (InterruptedException e) {
      p.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", cmd), e);
    }
    if (code != 0) {
      throw new IOException(String.join(" ", cmd) + " exited with " + code + ": "
          + out.substring(Math.max(0, out.length() - 600)).strip());
    }
    return parse(out);
  }
}
