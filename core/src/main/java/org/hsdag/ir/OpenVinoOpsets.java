package org.hsdag.ir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The opsets OpenVINO's IR reader knows and the op types of each ({@code openvino-opsets.txt}, printed
 * from the runtime): a layer's {@code version} must name one of them and its {@code type} must be in
 * it, compared without case as the reader does, with the IR's {@code Const} for {@code Constant}.
 */
final class OpenVinoOpsets {
  /** The runtime the table was printed from. */
  static final String RUNTIME = "2026.4";

  private static final Map<String, Set<String>> TYPES = load();

  private OpenVinoOpsets() {}

  /** Why OpenVINO's reader refuses a layer of {@code type} from opset {@code version}, or null when it reads it. */
  static String refusal(String type, String version) {
    Set<String> types = TYPES.get(version);
    if (types == null) {
      return "(" + type + ") is from " + (version == null || version.isEmpty() ? "no opset" : "opset '" + version + "'")
          + ", which OpenVINO " + RUNTIME + " does not have (it has " + first() + ".." + last()
          + "; the IR was made by a newer or a foreign tool)";
    }
    String key = key(type);
    if (types.contains(key)) {
      return null;
    }
    String other = TYPES.entrySet().stream().filter(e -> e.getValue().contains(key)).map(Map.Entry::getKey)
        .min(Comparator.comparingInt(OpenVinoOpsets::number)).orElse(null);
    return "has type '" + type + "', which " + version + " does not have ("
        + (other == null ? "an op type OpenVINO " + RUNTIME + " does not know: a custom op needs its extension, "
            + "or the IR is damaged" : other + " has it: the IR names the wrong opset")
        + ")";
  }

  private static String key(String type) {
    String t = type == null ? "" : type.toLowerCase(Locale.ROOT);
    return t.equals("const") ? "constant" : t;
  }

  private static int number(String opset) {
    try {
      return Integer.parseInt(opset.replaceAll("\\D", ""));
    } catch (NumberFormatException e) {
      return Integer.MAX_VALUE;
    }
  }

  private static String first() {
    return TYPES.keySet().stream().min(Comparator.comparingInt(OpenVinoOpsets::number)).orElse("");
  }

  private static String last() {
    return TYPES.keySet().stream().max(Comparator.comparingInt(OpenVinoOpsets::number)).orElse("");
  }

  private static Map<String, Set<String>> load() {
    Map<String, Set<String>> m = new TreeMap<>();
    try (InputStream in = OpenVinoOpsets.class.getResourceAsStream("openvino-opsets.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] parts = line.trim().split("\\s+");
        if (parts.length > 1 && !parts[0].startsWith("#")) {
          m.put(parts[0],
              Arrays.stream(parts).skip(1).map(OpenVinoOpsets::key).collect(Collectors.toUnmodifiableSet()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.copyOf(m);
  }
}
