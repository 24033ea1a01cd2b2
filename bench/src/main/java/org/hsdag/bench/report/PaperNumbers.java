package org.hsdag.bench.report;

import java.util.Map;

/**
 * The HSDAG paper's own Table 2 and Table 3 (execution time in seconds on i9-12900K + UHD 770 +
 * Flex 170, OpenVINO 2023.3), shown beside our numbers for reference only. Keyed by paper row and
 * by our model name; NaN marks the paper's "OOM".
 */
public final class PaperNumbers {
  private PaperNumbers() {}

  // Our method name -> the paper's row it corresponds to (our extra baselines have none).
  private static final Map<String, String> ROW = Map.ofEntries(
      Map.entry("cpu", "CPU-only"),
      Map.entry("gpu1", "GPU-only"),
      Map.entry("openvino-cpu", "OpenVINO-CPU"),
      Map.entry("openvino-gpu", "OpenVINO-GPU"),
      Map.entry("placeto", "Placeto"),
      Map.entry("rnn", "RNN-based"),
      Map.entry("hsdag", "HSDAG"),
      Map.entry("hsdag-no-shape", "w/o output shape"),
      Map.entry("hsdag-no-id", "w/o node ID"),
      Map.entry("hsdag-no-structural", "w/o graph structural features"));

  /** The paper's Table 2/3 row of our method {@code method}, or null when the paper has none. */
  public static String row(String method) {
    return ROW.get(method);
  }

  /** Paper column name for each of our benchmark model names. */
  public static final Map<String, String> COLUMN = Map.of("inception_v3", "Inception-V3", "resnet50", "ResNet",
      "bert_base", "BERT");

  // row -> {Inception-V3, ResNet, BERT} seconds
  private static final Map<String, double[]> SECONDS = Map.ofEntries(
      Map.entry("CPU-only", new double[] {0.0128, 0.0160, 0.00638}),
      Map.entry("GPU-only", new double[] {0.0120, 0.00781, 0.00277}),
      Map.entry("OpenVINO-CPU", new double[] {0.0128, 0.0234, 0.00657}),
      Map.entry("OpenVINO-GPU", new double[] {0.0138, 0.00876, 0.00284}),
      Map.entry("Placeto", new double[] {0.0116, 0.00932, 0.00651}),
      Map.entry("RNN-based", new double[] {0.0128, 0.00875, Double.NaN}),
      Map.entry("HSDAG", new double[] {0.0105, 0.00766, 0.00267}),
      Map.entry("w/o output shape", new double[] {0.0117, 0.00768, 0.00278}),
      Map.entry("w/o node ID", new double[] {0.0117, 0.00768, 0.00279}),
      Map.entry("w/o graph structural features", new double[] {0.0109, 0.00766, 0.00268}));

  // The paper's speedup column as printed (it is not always recomputable from its latencies).
  private static final Map<String, double[]> SPEEDUP = Map.ofEntries(
      Map.entry("CPU-only", new double[] {0, 0, 0}),
      Map.entry("GPU-only", new double[] {6.25, 51.2, 56.5}),
      Map.entry("OpenVINO-CPU", new double[] {0, -46.3, -2.98}),
      Map.entry("OpenVINO-GPU", new double[] {-7.81, 45.3, 55.5}),
      Map.entry("Placeto", new double[] {9.38, 41.8, -2.04}),
      Map.entry("RNN-based", new double[] {0, 45.3, Double.NaN}),
      Map.entry("HSDAG", new double[] {17.9, 52.1, 58.2}),
      Map.entry("w/o output shape", new double[] {8.59, 52.0, 56.4}),
      Map.entry("w/o node ID", new double[] {8.59, 52.0, 56.4}),
      Map.entry("w/o graph structural features", new double[] {14.8, 52.1, 58.2}));

  private static int index(String model) {
    String col = COLUMN.get(model);
    if (col == null) {
      return -1;
    }
    return switch (col) {
      case "Inception-V3" -> 0;
      case "ResNet" -> 1;
      default -> 2;
    };
  }

  /** The paper's latency in milliseconds, NaN for OOM, or null when the paper has no such cell. */
  public static Double latencyMillis(String paperRow, String model) {
    int i = index(model);
    double[] row = paperRow == null ? null : SECONDS.get(paperRow);
    return row == null || i < 0 ? null : row[i] * 1000;
  }

  /** The paper's speedup % vs CPU-only, NaN for OOM, or null when the paper has no such cell. */
  public static Double speedupPercent(String paperRow, String model) {
    int i = index(model);
    double[] row = paperRow == null ? null : SPEEDUP.get(paperRow);
    return row == null || i < 0 ? null : row[i];
  }
}
