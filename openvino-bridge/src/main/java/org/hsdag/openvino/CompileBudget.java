package org.hsdag.openvino;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * How much memory the compiled models kept for reuse may take, and what one is charged.
 *
 * <p>Default budget: half of the machine's {@code MemAvailable} ({@code /proc/meminfo}, read when
 * the first compiled model is kept) less four times the model's weights (room for the model as
 * OpenVINO read it, its mapped weights and one compile's transient peak); where {@code /proc/meminfo}
 * cannot be read, sixteen times the weights. A compiled model is charged the growth of the process's
 * resident memory over its compile, input filling and first inferences, and at least the weights'
 * size (freed memory reused by the allocator can hide growth): measured with the 2026.4.1 wheel,
 * CPU + CPU2 (f32), a kept resnet50 (51 MB of weights) took 55–150 MB, an ssd-inception-v2 (100 MB)
 * 85–220 MB.
 *
 * @param bytes the budget, 0 to keep nothing
 * @param source where it comes from, for the report
 */
record CompileBudget(long bytes, String source) {
  private static final long MB = 1024L * 1024;

  /** The default budget for a model with {@code weightBytes} of weights on a machine with {@code memAvailable} free (empty: unknown). */
  static CompileBudget byDefault(OptionalLong memAvailable, long weightBytes) {
    long w = Math.max(0, weightBytes);
    if (memAvailable.isEmpty()) {
      return new CompileBudget(16 * w, "default: 16x the model's weights of " + mb(w) + ", MemAvailable unreadable");
    }
    long b = Math.max(0, memAvailable.getAsLong() / 2 - 4 * w);
    return new CompileBudget(b, "default: half of MemAvailable " + mb(memAvailable.getAsLong()) + " less 4x the "
        + "model's weights of " + mb(w));
  }

  /** What a kept compiled model is charged: the resident growth over its first measurement, at least {@code weightBytes}. */
  static long charge(long residentBefore, long residentAfter, long weightBytes) {
    return Math.max(residentAfter - residentBefore, Math.max(0, weightBytes));
  }

  /** {@code MemAvailable} of {@code /proc/meminfo} in bytes; empty where it cannot be read. */
  static OptionalLong memAvailable() {
    try {
      return parseMemAvailable(Files.readString(Path.of("/proc/meminfo")));
    } catch (IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** {@code MemAvailable:   22353364 kB} of a {@code /proc/meminfo} text, in bytes. */
  static OptionalLong parseMemAvailable(String meminfo) {
    for (String line : meminfo.split("\n", -1)) {
      if (line.startsWith("MemAvailable:")) {
        String[] parts = line.substring("MemAvailable:".length()).trim().split("\\s+", -1);
        try {
          long v = Long.parseLong(parts[0]);
          return OptionalLong.of(parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? v * 1024 : v);
        } catch (NumberFormatException e) {
          return OptionalLong.empty();
        }
      }
    }
    return OptionalLong.empty();
  }

  /** This process's resident memory in bytes ({@code /proc/self/statm}, 4 KiB pages), 0 where it cannot be read. */
  static long residentBytes() {
    return residentBytes(Path.of("/proc/self/statm"));
  }

  /** The resident memory in bytes of the process whose {@code statm} file is {@code statm}, 0 where it cannot be read. */
  static long residentBytes(Path statm) {
    try {
      String[] f = Files.readString(statm).trim().split("\\s+", -1);
      return Long.parseLong(f[1]) * 4096;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** The weights beside {@code xml} ({@code .bin} of the same name), 0 when unknown. */
  static long weightBytes(Path xml) {
    try {
      return Files.size(org.hsdag.ir.IrReader.defaultBinPath(xml));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  static String mb(long bytes) {
    return String.format(Locale.ROOT, "%d MB", bytes / MB);
  }
}
