package org.hsdag.openvino;

import java.util.Locale;
import java.util.Objects;
import org.hsdag.placement.DeviceSet;

/**
 * A test device: OpenVINO's CPU plugin registered a second time under another name, with its own
 * thread count, so that HETERO splits a model between two real devices on a machine with a CPU
 * only. OpenVINO accepts such a name only if it contains the plugin's own name "CPU" and no dot
 * ({@code ov::CoreImpl::register_plugin}, checked by running it on the 2026.4.1 wheel).
 *
 * @param name the device name, e.g. {@code CPU2}
 * @param threads its {@code INFERENCE_NUM_THREADS} (at least 1), so that it differs from {@code CPU}
 */
public record TestDevice(String name, int threads) {
  /** Threads when the user names none: one, so the two devices differ in speed. */
  public static final int DEFAULT_THREADS = 1;

  public TestDevice {
    Objects.requireNonNull(name);
    if (!name.contains("CPU") || name.equals("CPU") || name.contains(".") || name.contains(",") || name.contains(":")) {
      throw new IllegalArgumentException("test device '" + name + "': the name must contain CPU, differ from CPU and "
          + "have no '.', ',' or ':' (e.g. CPU2)");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("test device '" + name + "': threads must be at least 1");
    }
  }

  /**
   * Parses {@code NAME} or {@code NAME:threads=N} (the CLI's {@code --test-device}).
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static TestDevice parse(String text) {
    String t = text.strip();
    int colon = t.indexOf(':');
    if (colon < 0) {
      return new TestDevice(DeviceSet.canonical(t), DEFAULT_THREADS);
    }
    String setting = t.substring(colon + 1).strip().toLowerCase(Locale.ROOT);
    if (!setting.startsWith("threads=")) {
      throw new IllegalArgumentException("test device '" + t + "': expected NAME or NAME:threads=N");
    }
    try {
      return new TestDevice(DeviceSet.canonical(t.substring(0, colon)), Integer.parseInt(setting.substring("threads=".length()).strip()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("test device '" + t + "': threads must be a whole number");
    }
  }

  private static final String MARK = "test device: the CPU plugin registered again, ";
  private static final java.util.regex.Pattern MARKED =
      java.util.regex.Pattern.compile(java.util.regex.Pattern.quote(MARK) + "(\\d+) threads?\\)$");

  /** How reports name it: {@code test device: the CPU plugin registered again, 1 thread}. */
  public String describe() {
    return MARK + threads + (threads == 1 ? " thread" : " threads");
  }

  /** {@code fullName} (e.g. {@code Intel Xeon}) marked as this test device's, as devices and reports show it. */
  public String mark(String fullName) {
    String chip = fullName == null || fullName.isBlank() ? "" : fullName + " ";
    return chip + "(" + describe() + ")";
  }

  /** The test device a full name written by {@link #mark} describes (a resumed run registers it again), if any. */
  public static java.util.Optional<TestDevice> fromMarked(String name, String fullName) {
    java.util.regex.Matcher m = MARKED.matcher(fullName == null ? "" : fullName);
    return m.find() ? java.util.Optional.of(new TestDevice(name, Integer.parseInt(m.group(1)))) : java.util.Optional.empty();
  }

  /** The CLI form, {@code CPU2:threads=1}. */
  @Override
  public String toString() {
    return name + ":threads=" + threads;
  }
}
