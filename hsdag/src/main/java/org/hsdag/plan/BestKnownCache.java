package org.hsdag.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import org.hsdag.io.AtomicFiles;
import org.hsdag.memory.MemoryCheck;
import org.hsdag.placement.Placement;

/**
 * {@link BestKnown} results remembered in a folder, one file per cost model, search size and seed,
 * so bench and the experiments pay for a model's long reference search once (decoder_9b's
 * took most of a 10-minute bench). A file is named by a digest of what determines the
 * search's result: the devices, the op count, the evaluations, the seed, the objective, the memory
 * capacities and the cost model's exact latency of every planner candidate (any change of the cost
 * model changes those). A remembered placement is used only when the cost model still gives it
 * exactly the remembered latency and it fits the capacities; anything else (a damaged or foreign
 * file) is searched again and rewritten.
 */
public final class BestKnownCache {
  /** The folder's default: {@code $XDG_CACHE_HOME/hsdag/best-known}, else {@code ~/.cache/hsdag/best-known}. */
  public static Path defaultDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("hsdag").resolve("best-known");
  }

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FORMAT = "best-known 1";

  private BestKnownCache() {}

  /**
   * A result and whether it came from a file.
   *
   * @param result the best known
   * @param file the file it was read from or written to (null when it could not be written)
   * @param remembered whether it was read rather than searched
   */
  public record Lookup(BestKnown.Result result, Path file, boolean remembered) {}

  /**
   * {@link BestKnown#search(PlacementProxy, int, long)}, remembered in {@code dir}. A file that
   * cannot be written leaves the result unremembered (file null), never fails the search.
   */
  public static Lookup search(PlacementProxy proxy, int evaluations, long seed, Path dir) {
    Plan plan = new Planner().plan(proxy);
    Path file = dir.resolve(key(proxy, plan, evaluations, seed) + ".json");
    Optional<BestKnown.Result> known = read(file, proxy);
    if (known.isPresent()) {
      return new Lookup(known.get(), file, true);
    }
    BestKnown.Result result = BestKnown.search(proxy, plan, evaluations, seed);
    try {
      Files.createDirectories(dir);
      AtomicFiles.writeBytes(file, JSON.writeValueAsBytes(json(proxy, result)));
      return new Lookup(result, file, false);
    } catch (IOException e) {
      return new Lookup(result, null, false);
    }
  }

  /** The digest naming the file of a search of {@code proxy} (hex). */
  static String key(PlacementProxy proxy, Plan plan, int evaluations, long seed) {
    StringBuilder s = new StringBuilder(FORMAT).append('|').append(String.join(",", proxy.devices().names()))
        .append('|').append(proxy.model().opCount()).append('|').append(evaluations).append('|').append(seed)
        .append('|').append(proxy.throughputRequests());
    proxy.memory().ifPresent(check -> capacities(s, check));
    for (PlanCandidate c : plan.candidates()) {
      s.append('|').append(Double.doubleToLongBits(c.proxyMicros()));
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private static void capacities(StringBuilder s, MemoryCheck check) {
    for (int d = 0; d < check.devices().size(); d++) {
      s.append("|m").append(check.capacity(d)).append('/').append(check.overhead(d));
    }
  }

  /** The remembered result in {@code file}, when it is still exact on {@code proxy}. */
  static Optional<BestKnown.Result> read(Path file, PlacementProxy proxy) {
    try {
      if (!Files.isRegularFile(file)) {
        return Optional.empty();
      }
      JsonNode root = JSON.readTree(file.toFile());
      JsonNode ops = root.path("op_devices");
      if (!FORMAT.equals(root.path("format").asText()) || !ops.isArray() || ops.size() != proxy.model().opCount()) {
        return Optional.empty();
      }
      int[] devices = new int[ops.size()];
      for (int i = 0; i < devices.length; i++) {
        devices[i] = ops.get(i).asInt(-1);
        if (devices[i] < 0 || devices[i] >= proxy.devices().size()) {
          return Optional.empty();
        }
      }
      Placement p = proxy.placement(devices);
      double millis = root.path("proxy_ms").asDouble(Double.NaN);
      double now = proxy.latencyMicros(p) / 1000.0;
      boolean fits = proxy.memory().map(check -> check.fits(p)).orElse(true);
      if (!(Math.abs(now - millis) <= 1e-9 * Math.abs(millis)) || !fits) {
        return Optional.empty();
      }
      return Optional.of(new BestKnown.Result(p, now, root.path("planner_ms").asDouble(Double.NaN),
          root.path("source").asText("?")));
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // damaged: searched again
    }
  }

  private static ObjectNode json(PlacementProxy proxy, BestKnown.Result r) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("proxy_ms", r.proxyMillis());
    root.put("planner_ms", r.plannerMillis());
    root.put("source", r.source());
    ArrayNode ops = root.putArray("op_devices");
    for (int d : proxy.opDevices(r.placement())) {
      ops.add(d);
    }
    return root;
  }
}
