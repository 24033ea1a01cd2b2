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
import org.hsdag.openvino.ProfileDatabase;

/**
 * Where {@code plan} keeps the measurements a real backend built a cost model from, so that the same
 * call again plans on the same numbers instead of profiling again (minutes on a large model, and other
 * numbers each time on a busy machine). One entry per {@link Key} in the per-machine profile database, whose op
 * records (kernel times by op signature) a build of another model reuses; the fit to designed splits is per model.
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

  /** The per-machine profile database that holds these measurements and the op records they were built on. */
  ProfileDatabase database();

  /**
   * The {@link ProfileDatabase} {@code profiles.db} in a folder (by default {@code ~/.cache/hsdag/cost-models}): one
   * row per key beside the op records, so two tunes at once and a kill at any point leave it whole.
   */
  record Database(Path dir) implements CostModelStore {
    /** The database file's name in its folder. */
    static final String FILE = "profiles.db";

    /** {@code -Dhsdag.costModelCache=DIR} moves it (the test suite keeps its own, so runs never share one). */
    static Database defaultFolder() {
      String dir = System.getProperty("hsdag.costModelCache");
      return new Database(dir != null && !dir.isBlank() ? Path.of(dir)
          : Path.of(System.getProperty("user.home"), ".cache", "hsdag", "cost-models"));
    }

    @Override
    public ProfileDatabase database() {
      return ProfileDatabase.at(dir.resolve(FILE));
    }

    @Override
    public Optional<String> load(Key key) throws IOException {
      return database().modelFit(key.digest());
    }

    @Override
    public void save(Key key, String measurements) throws IOException {
      database().saveModelFit(key.digest(), measurements);
    }

    @Override
    public String where(Key key) {
      return dir.resolve(FILE) + " (model " + key.digest().substring(0, 12) + ")";
    }
  }
}
