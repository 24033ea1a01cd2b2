package org.hsdag.placement;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.io.AtomicFiles;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.ModelFormat;
import org.hsdag.ir.OpGraph;

/**
 * Placement JSON: {@code {"<friendly_name>": "<device>", ...}}, one entry per op (what {@code
 * best.json} holds; apply it by setting each op's {@code affinity} rt_info, see {@code hsdag apply}).
 */
public final class PlacementFiles {
  private static final ObjectMapper JSON = org.hsdag.io.JsonFiles.mapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final ObjectReader READER = JSON.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  /** The placement format, as error messages state it. */
  static final String SHAPE = "a JSON object {\"<node friendly name>\": \"<device>\", ...}";

  private PlacementFiles() {}

  /**
   * Reads the raw name → device map, device names in their {@link DeviceSet#canonical} spelling.
   *
   * @throws InvalidPlacementException one line naming the file and what shape was expected
   */
  public static Map<String, String> readMap(Path file) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new InvalidPlacementException(file + ": placement file not found");
    } catch (IOException e) {
      throw new InvalidPlacementException(file + (Files.isDirectory(file) ? ": is a directory, not a placement file"
          : ": cannot read (" + IoErrors.reason(e) + ")"));
    }
    if (ModelFormat.detect(file) == ModelFormat.IR_XML) {
      throw new InvalidPlacementException(
          file + ": is XML (an OpenVINO IR model?), not a placement; expected " + SHAPE);
    }
    JsonNode root;
    try {
      root = READER.readTree(bytes);
    } catch (JsonProcessingException e) {
      String at = e.getLocation() == null ? "" : ":" + e.getLocation().getLineNr();
      // Two devices for one node would otherwise be decided silently by the last one.
      if (e.getProcessor() instanceof JsonParser p && p.getParsingContext().getParent() != null
          && p.getParsingContext().getParent().inRoot() && e.getOriginalMessage().startsWith("Duplicate field")) {
        throw new InvalidPlacementException(file + at + ": node \"" + p.getParsingContext().getCurrentName()
            + "\" is placed twice; each node gets one device (" + SHAPE + ")");
      }
      throw new InvalidPlacementException(file + at + ": not valid JSON; expected " + SHAPE);
    } catch (IOException e) {
      throw new InvalidPlacementException(file + ": cannot read (" + IoErrors.reason(e) + ")");
    }
    if (root == null || root.isMissingNode()) {
      throw new InvalidPlacementException(file + ": is empty; expected " + SHAPE);
    }
    if (!root.isObject()) {
      throw new InvalidPlacementException(file + ": holds " + kind(root) + "; expected " + SHAPE);
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (!v.isTextual() || v.asText().isBlank()) {
        throw new InvalidPlacementException(file + ": the device of node \"" + e.getKey() + "\" is "
            + (v.isTextual() ? "empty" : kind(v)) + "; expected a device name such as \"GPU.1\" (" + SHAPE + ")");
      }
      map.put(e.getKey(), DeviceSet.canonical(v.asText()));
    }
    return map;
  }

  private static String kind(JsonNode v) {
    if (v.isArray()) {
      return "a JSON list";
    }
    if (v.isObject()) {
      return "a JSON object";
    }
    if (v.isNumber()) {
      return "a number (" + v.asText() + ")";
    }
    if (v.isBoolean()) {
      return v.asText();
    }
    if (v.isNull()) {
      return "null";
    }
    return "a string";
  }

  /** Reads and validates a placement for {@code graph} on {@code devices}. */
  public static Placement read(Path file, OpGraph graph, DeviceSet devices) {
    try {
      return Placement.fromNameMap(graph, devices, readMap(file));
    } catch (InvalidPlacementException e) {
      throw e.getMessage().startsWith(file.toString()) ? e
          : new InvalidPlacementException(file + ": " + e.getMessage());
    }
  }

  /** Writes the placement atomically. */
  public static void write(Path file, OpGraph graph, Placement placement) throws IOException {
    String text = toJson(graph, placement);
    AtomicFiles.writeString(file, text);
  }

  public static String toJson(OpGraph graph, Placement placement) {
    try {
      return JSON.writeValueAsString(placement.toNameMap(graph)) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
