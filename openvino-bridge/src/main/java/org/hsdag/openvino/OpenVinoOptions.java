package org.hsdag.openvino;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.TestDevice;

/**
 * Settings of the real OpenVINO backend.
 *
 * @param cacheDir OpenVINO model cache directory ({@code CACHE_DIR}), or null for none
 * @param timeout longest one measurement may take (compile + runs), or null for no limit
 * @param seed seed of the random input data (same seed, same inputs)
 * @param inputShapes static shapes for dynamic model inputs, by input name (e.g. {@code input_ids → [1, 128]})
 * @param testDevices CPU plugins to register again under other names ({@link TestDevice})
 */
public record OpenVinoOptions(Path cacheDir, Duration timeout, long seed, Map<String, long[]> inputShapes,
    List<TestDevice> testDevices) {
  /** No cache, no timeout, seed 0, no input shapes, no test devices. */
  public static final OpenVinoOptions DEFAULT = new OpenVinoOptions(null, null, 0L, Map.of(), List.of());

  public OpenVinoOptions {
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("Expected a positive timeout (got " + timeout + ")");
    }
    Map<String, long[]> copy = new LinkedHashMap<>();
    for (Map.Entry<String, long[]> e : inputShapes.entrySet()) {
      copy.put(e.getKey(), e.getValue().clone());
    }
    inputShapes = Collections.unmodifiableMap(copy);
    testDevices = List.copyOf(testDevices);
  }

  /** Input shapes by name; the arrays are copies. */
  @Override
  public Map<String, long[]> inputShapes() {
    Map<String, long[]> copy = new LinkedHashMap<>();
    inputShapes.forEach((k, v) -> copy.put(k, v.clone()));
    return Collections.unmodifiableMap(copy);
  }

  /** The shape for input {@code name}, copied, or null. */
  public long[] inputShape(String name) {
    long[] s = inputShapes.get(name);
    return s == null ? null : s.clone();
  }

  public OpenVinoOptions withTimeout(Duration t) {
    return new OpenVinoOptions(cacheDir, t, seed, inputShapes, testDevices);
  }

  public OpenVinoOptions withCacheDir(Path dir) {
    return new OpenVinoOptions(dir, timeout, seed, inputShapes, testDevices);
  }

  public OpenVinoOptions withSeed(long s) {
    return new OpenVinoOptions(cacheDir, timeout, s, inputShapes, testDevices);
  }

  public OpenVinoOptions withInputShapes(Map<String, long[]> shapes) {
    return new OpenVinoOptions(cacheDir, timeout, seed, shapes, testDevices);
  }

  public OpenVinoOptions withTestDevices(List<TestDevice> devices) {
    return new OpenVinoOptions(cacheDir, timeout, seed, inputShapes, devices);
  }

  /**
   * Parses {@code name=1,128;other=1,3,224,224} (the CLI's {@code --input-shape} form).
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  public static Map<String, long[]> parseInputShapes(String text) {
    Map<String, long[]> out = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String entry : text.split(";", -1)) {
      String e = entry.trim();
      if (e.isEmpty()) {
        continue;
      }
      int eq = e.lastIndexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new IllegalArgumentException("bad input shape '" + e + "' (expected name=d1,d2,...)");
      }
      String[] parts = e.substring(eq + 1).split(",", -1);
      long[] dims = new long[parts.length];
      for (int i = 0; i < parts.length; i++) {
        try {
          dims[i] = Long.parseLong(parts[i].trim());
        } catch (NumberFormatException ex) {
          throw new IllegalArgumentException("bad dimension '" + parts[i].trim() + "' in input shape '" + e + "'");
        }
        if (dims[i] < 1) {
          throw new IllegalArgumentException("input shape '" + e + "' needs positive dimensions");
        }
      }
      out.put(e.substring(0, eq).trim(), dims);
    }
    return out;
  }
}
