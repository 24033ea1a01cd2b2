package org.hsdag.placement;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.OpGraph;

/**
 * Placement JSON: {@code {"<friendly_name>": "<device>", ...}}, the map OpenVINO's
 * {@code benchmark_app -affinity} reads.
 */
public final class PlacementFiles {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PlacementFiles() {}

  /** Reads the raw name → device map. */
  public static Map<String, String> readMap(Path file) {
    try {
      return JSON.readValue(Files.readAllBytes(file), new TypeReference<LinkedHashMap<String, String>>() {});
    } catch (NoSuchFileException e) {
      throw new InvalidPlacementException(file + ": placement file not found");
    } catch (JsonProcessingException e) {
      throw new InvalidPlacementException(file + ": not a {\"node\": \"device\"} JSON map ("
          + e.getOriginalMessage().replaceAll("\\s+", " ") + ")");
    } catch (IOException e) {
      throw new InvalidPlacementException(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /** Reads and validates a placement for {@code graph} on {@code devices}. */
  public static Placement read(Path file, OpGraph graph, DeviceSet devices) {
    try {
      return Placement.fromNameMap(graph, devices, readMap(file));
    } catch (InvalidPlacementException e) {
      throw e.getMessage().startsWith(file.toString()) ? e : new InvalidPlacementException(file + ": " + e.getMessage());
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
