package org.hsdag.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.hsdag.io.AtomicFiles;

/**
 * Where {@code plan} keeps the measurements a real backend built a cost model from, so that the same
 * call again plans on the same numbers instead of profiling again (minutes on a large model, and other
 * numbers each time on a busy machine). One file per {@link Key}; a per-machine profile database
 * can take its place behind this interface.
 */
interface CostModelStore {
  /** The saved measurements for {@code key}, if any. */
  Optional<String> load(Key key) throws IOException;

  /** Saves {@code measurements} for {@code key} (atomically). */
  void save(Key key, String measurements) throws IOException;

  /** Where {@code key}'s measurements are, for the user. */
  String where(Key key);

  /**
   * What a cost model's measurements depend on: the model file's content, the devices and test
   * devices, the runtime (its version and the devices' full names) and the input sizes.
   *
   * @param digest hex SHA-256 over all of these
   */
  record Key(String digest) {
    /**
     * The key of {@code xml} (its text, and its {@code .bin}'s size and modification time: hashing
     * gigabytes of weights would cost more than it protects) on {@code runtime} with these devices.
     */
    static Key of(Path xml, List<String> devices, List<String> testDevices, String runtime, List<String> inputs)
        throws IOException {
      MessageDigest md;
      try {
        md = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
      md.update(Files.readAllBytes(xml));
      Path bin = xml.resolveSibling(xml.getFileName().toString().replaceFirst("\\.xml$", "") + ".bin");
      String weights = Files.isRegularFile(bin)
          ? Files.size(bin) + "@" + Files.getLastModifiedTime(bin).toMillis() : "no .bin";
      String rest = String.join("\n", weights, String.join(",", devices), String.join(",", testDevices), runtime,
          String.join(";", inputs));
      md.update(rest.getBytes(StandardCharsets.UTF_8));
      return new Key(HexFormat.of().formatHex(md.digest()));
    }
  }

  /** One JSON file per key in a folder (by default {@code ~/.cache/hsdag/cost-models}). */
  record Folder(Path dir) implements CostModelStore {
    /** {@code -Dhsdag.costModelCache=DIR} moves it (the test suite keeps its own, so runs never share one). */
    static Folder defaultFolder() {
      String dir = System.getProperty("hsdag.costModelCache");
      return new Folder(dir != null && !dir.isBlank() ? Path.of(dir)
          : Path.of(System.getProperty("user.home"), ".cache", "hsdag", "cost-models"));
    }

    private Path file(Key key) {
      return dir.resolve(key.digest() + ".json");
    }

    @Override
    public Optional<String> load(Key key) throws IOException {
      Path f = file(key);
      return Files.isRegularFile(f) ? Optional.of(Files.readString(f)) : Optional.empty();
    }

    @Override
    public void save(Key key, String measurements) throws IOException {
      Files.createDirectories(dir);
      AtomicFiles.writeString(file(key), measurements);
    }

    @Override
    public String where(Key key) {
      return file(key).toString();
    }
  }
}
