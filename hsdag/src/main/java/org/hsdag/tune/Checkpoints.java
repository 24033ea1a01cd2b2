package org.hsdag.tune;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.hsdag.io.AtomicFiles;
import org.hsdag.search.Checkpointable;

/**
 * The {@code checkpoint/} folder of a run. A strategy's state is written into a fresh
 * {@code step-NNNNNN} folder, and only then does {@code latest.json} (replaced atomically) point to
 * it; older folders are removed afterwards. A kill at any moment leaves {@code latest.json} naming
 * a complete checkpoint, or no checkpoint at all (resume then replays the log from the start).
 * {@code latest.json} also holds the SHA-256 of every file of the checkpoint: a file changed on
 * disk (one flipped bit restores silently into a different policy) makes the checkpoint unusable,
 * and resume replays the log instead.
 */
public final class Checkpoints {
  static final String DIR = "checkpoint";
  static final String LATEST = "latest.json";
  private static final String CHECKSUMS = "sha256";

  private Checkpoints() {}

  /**
   * A complete checkpoint.
   *
   * @param step observations the strategy had made when it was saved
   * @param dir the folder holding the strategy's files
   * @param strategy the strategy name that wrote it
   */
  public record Checkpoint(int step, Path dir, String strategy) {}

  /** Saves the state of strategy {@code strategyName} after {@code step} observations. */
  public static void save(Path runDir, int step, String strategyName, Checkpointable strategy) throws IOException {
    Path root = runDir.resolve(DIR);
    Files.createDirectories(root);
    String name = String.format("step-%06d", step);
    Path tmp = root.resolve("." + name + ".tmp");
    deleteTree(tmp);
    Files.createDirectories(tmp);
    strategy.saveState(tmp);
    Path target = root.resolve(name);
    Optional<Checkpoint> current;
    try {
      current = latest(runDir);
    } catch (DamagedRunFileException e) {
      current = Optional.empty(); // about to be replaced
    }
    if (current.isPresent() && current.get().dir().equals(target)) {
      // Re-saving the same step (after a resume): point away first so latest.json never names a half-deleted folder.
      AtomicFiles.writeString(root.resolve(LATEST), "{}\n");
    }
    deleteTree(target);
    Files.move(tmp, target);
    Map<String, Object> latest = new LinkedHashMap<>();
    latest.put("step", step);
    latest.put("dir", name);
    latest.put("strategy", strategyName);
    latest.put(CHECKSUMS, checksums(target));
    AtomicFiles.writeString(root.resolve(LATEST), RunLog.JSON.writeValueAsString(latest) + "\n");
    try (Stream<Path> old = Files.list(root)) {
      for (Path p : (Iterable<Path>) old::iterator) {
        String f = p.getFileName().toString();
        if (Files.isDirectory(p) && !p.equals(target) && (f.startsWith("step-") || f.endsWith(".tmp"))) {
          deleteTree(p);
        }
      }
    }
  }

  /** The checkpoint {@code latest.json} names, if it is there and complete. */
  public static Optional<Checkpoint> latest(Path runDir) throws IOException {
    Path file = runDir.resolve(DIR).resolve(LATEST);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    JsonNode n;
    try {
      n = RunLog.JSON.readTree(Files.readAllBytes(file));
    } catch (JsonProcessingException e) {
      throw new DamagedRunFileException(file, "is not valid JSON (" + e.getOriginalMessage() + ")");
    }
    if (!n.hasNonNull("dir") || !n.hasNonNull("step")) {
      return Optional.empty();
    }
    Path dir = runDir.resolve(DIR).resolve(n.get("dir").asText());
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    verify(file, n.get(CHECKSUMS), dir);
    return Optional.of(new Checkpoint(n.get("step").asInt(), dir, n.path("strategy").asText("")));
  }

  /** SHA-256 of every file under {@code dir}, by path relative to it (sorted, so the JSON is stable). */
  private static Map<String, String> checksums(Path dir) throws IOException {
    Map<String, String> sums = new TreeMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
        sums.put(dir.relativize(f).toString().replace('\\', '/'), RunManifest.sha256(f));
      }
    }
    return sums;
  }

  /** Refuses a checkpoint whose files are not the ones {@code latest.json} recorded. */
  private static void verify(Path latestFile, JsonNode recorded, Path dir) throws IOException {
    if (recorded == null || !recorded.isObject()) {
      throw new DamagedRunFileException(latestFile,
          "has no checksums of the checkpoint's files (written by an older hsdag)");
    }
    Map<String, String> actual = checksums(dir);
    for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) recorded::fields) {
      String sum = actual.remove(e.getKey());
      if (sum == null) {
        throw new DamagedRunFileException(dir.resolve(e.getKey()), "is missing from the checkpoint");
      }
      if (!sum.equals(e.getValue().asText())) {
        throw new DamagedRunFileException(dir.resolve(e.getKey()),
            "was changed after it was written (its checksum does not match)");
      }
    }
    if (!actual.isEmpty()) {
      throw new DamagedRunFileException(dir.resolve(actual.keySet().iterator().next()),
          "was not part of the checkpoint");
    }
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> all = Files.walk(p)) {
      all.sorted(Comparator.reverseOrder()).forEach(q -> {
        try {
          Files.delete(q);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
