package org.hsdag.backend;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.placement.DeviceSet;

/**
 * A test device: OpenVINO's CPU plugin registered a second time under another name, with its own
 * settings, so that HETERO splits a model between two real devices on a machine with a CPU only.
 * OpenVINO accepts such a name only if it contains the plugin's own name "CPU" and no dot
 * ({@code ov::CoreImpl::register_plugin}, checked by running it on the 2026.4.1 wheel).
 *
 * <p>Measured on the 2026.4.1 wheel: the thread count holds when a model runs on the test device
 * alone, but not inside a HETERO request that also has a {@code CPU} sub-model; an inference
 * precision does hold there (docs/real-hardware.md).
 *
 * @param name the device name, e.g. {@code CPU2}
 * @param threads its {@code INFERENCE_NUM_THREADS} (at least 1)
 * @param precision its {@code INFERENCE_PRECISION_HINT} ({@code f32}, {@code bf16}, {@code f16}), or empty for the plugin's default
 */
public record TestDevice(String name, int threads, String precision) {
  /** Threads when the user names none: one, so the two devices differ in speed when run alone. */
  public static final int DEFAULT_THREADS = 1;

  private static final Set<String> PRECISIONS = Set.of("f32", "bf16", "f16");
  private static final String MARK = "test device: the CPU plugin registered again, ";
  private static final Pattern MARKED = Pattern
      .compile(Pattern.quote(MARK) + "(\\d+) threads?(?:, precision (\\w+))?\\)$");

  public TestDevice {
    Objects.requireNonNull(name);
    precision = precision == null ? "" : precision;
    if (!name.contains("CPU") || name.equals("CPU") || name.contains(".") || name.contains(",") || name.contains(":")) {
      throw new IllegalArgumentException("test device '" + name + "': the name must contain CPU, differ from CPU and "
          + "have no '.', ',' or ':' (e.g. CPU2)");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("test device '" + name + "': threads must be at least 1");
    }
    if (!precision.isEmpty() && !PRECISIONS.contains(precision)) {
      throw new IllegalArgumentException("test device '" + name + "': precision must be f32, bf16 or f16");
    }
  }

  /** {@code threads} threads at the plugin's default precision. */
  public TestDevice(String name, int threads) {
    this(name, threads, "");
  }

  /**
   * Parses {@code NAME[:threads=N][:precision=P]} (the CLI's {@code --test-device}).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static TestDevice parse(String text) {
    String[] parts = text.strip().split(":", -1);
    int threads = DEFAULT_THREADS;
    String precision = "";
    for (int i = 1; i < parts.length; i++) {
      String setting = parts[i].strip().toLowerCase(Locale.ROOT);
      if (setting.startsWith("threads=")) {
        try {
          threads = Integer.parseInt(setting.substring("threads=".length()).strip());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("test device '" + text.strip() + "': threads must be a whole number");
        }
      } else if (setting.startsWith("precision=")) {
        precision = setting.substring("precision=".length()).strip();
      } else {
        throw new IllegalArgumentException("test device '" + text.strip()
            + "': expected NAME[:threads=N][:precision=f32|bf16|f16]");
      }
    }
    return new TestDevice(DeviceSet.canonical(parts[0]), threads, precision);
  }

  /** Its OpenVINO properties in their string form, set on the device once it is registered (and printed for Python). */
  public Map<String, String> properties() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("INFERENCE_NUM_THREADS", Integer.toString(threads));
    if (!precision.isEmpty()) {
      p.put("INFERENCE_PRECISION_HINT", precision);
    }
    return Collections.unmodifiableMap(p);
  }

  /** How reports name it: {@code test device: the CPU plugin registered again, 1 thread[, precision f32]}. */
  public String describe() {
    return MARK + threads + (threads == 1 ? " thread" : " threads")
        + (precision.isEmpty() ? "" : ", precision " + precision);
  }

  /** {@code fullName} (e.g. {@code Intel Xeon}) marked as this test device's, as devices and reports show it. */
  public String mark(String fullName) {
    String chip = fullName == null || fullName.isBlank() ? "" : fullName + " ";
    return chip + "(" + describe() + ")";
  }

  /** The test device a full name written by {@link #mark} describes (a resumed run registers it again), if any. */
  public static Optional<TestDevice> fromMarked(String name, String fullName) {
    Matcher m = MARKED.matcher(fullName == null ? "" : fullName);
    return m.find() ? Optional.of(new TestDevice(name, Integer.parseInt(m.group(1)), m.group(2))) : Optional.empty();
  }

  /** The CLI form, {@code CPU2:threads=1} or {@code CPU2:threads=1:precision=f32}. */
  @Override
  public String toString() {
    return name + ":threads=" + threads + (precision.isEmpty() ? "" : ":precision=" + precision);
  }
}
