package org.hsdag.tune;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import org.hsdag.ir.ModelSource;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.io.AtomicFiles;

/**
 * {@code manifest.json}: what a run is — model (path, name, size, SHA-256 of the XML and of the
 * weights when present), backend and profile (and whether numbers are simulated), the devices with
 * their full names, the complete {@link TuneConfig} with its seed, software versions and the
 * command line. Written once when a run starts; {@code --resume} reads the configuration back.
 *
 * @param format manifest format version
 * @param created when the run started (ISO-8601)
 * @param hsdagVersion hsdag version
 * @param javaVersion Java runtime version
 * @param os operating system and architecture
 * @param host host name (the machine measured on, for real backends)
 * @param modelPath the model's absolute path (as given in manifests written before that; see {@link #modelFile})
 * @param modelName the model's name in the IR
 * @param modelSha256 SHA-256 of the IR XML
 * @param weightsSha256 SHA-256 of the .bin beside it, or null when absent
 * @param nodes operations in the model
 * @param edges edges in the model
 * @param backend backend name
 * @param profile backend profile (the name the backend reports)
 * @param profileSource where the simulator profile came from: a built-in name, or a file's path and
 *     the SHA-256 of its content (null for backends that describe the real machine)
 * @param simulated whether numbers are simulated
 * @param deviceInfos the run's devices with full names
 * @param inputShape the {@code --input-shape} as given, or null
 * @param dynamicInputs each dynamic input's size as measured ({@code name=1x8}); empty for a static model
 * @param inputShapeAssumed whether those sizes are hsdag's default assumption rather than given
 * @param sequenceLength the {@code --sequence-length} as given, 0 when not
 * @param pastLength the {@code --past-length} as given, 0 when not
 * @param config the run configuration
 * @param commandLine the arguments the run was started with
 * @param source the file the IR was converted from (an ONNX model, ...) with its SHA-256, or null for an IR given
 */
public record RunManifest(
    int format,
    String created,
    String hsdagVersion,
    String javaVersion,
    String os,
    String host,
    String modelPath,
    String modelName,
    String modelSha256,
    String weightsSha256,
    int nodes,
    int edges,
    String backend,
    String profile,
    ProfileSource profileSource,
    boolean simulated,
    List<DeviceInfo> deviceInfos,
    String inputShape,
    List<String> dynamicInputs,
    boolean inputShapeAssumed,
    long sequenceLength,
    long pastLength,
    TuneConfig config,
    List<String> commandLine,
    ModelSource source) {

  public static final String FILE = "manifest.json";
  public static final int FORMAT = 1;

  public RunManifest {
    deviceInfos = List.copyOf(deviceInfos);
    dynamicInputs = dynamicInputs == null ? List.of() : List.copyOf(dynamicInputs);
    commandLine = List.copyOf(commandLine);
  }

  public void write(Path runDir) throws IOException {
    AtomicFiles.writeString(runDir.resolve(FILE),
        RunLog.JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(this) + "\n");
  }

  /** Reads {@code runDir/manifest.json}; throws {@link NoSuchFileException} when the folder holds no run. */
  public static RunManifest read(Path runDir) throws IOException {
    return RunLog.JSON.readValue(Files.readAllBytes(runDir.resolve(FILE)), RunManifest.class);
  }

  /** The same manifest with another configuration (a resume that extends the budget or time). */
  public RunManifest withConfig(TuneConfig newConfig) {
    return new RunManifest(format, created, hsdagVersion, javaVersion, os, host, modelPath, modelName, modelSha256,
        weightsSha256, nodes, edges, backend, profile, profileSource, simulated, deviceInfos, inputShape, dynamicInputs,
        inputShapeAssumed, sequenceLength, pastLength, newConfig, commandLine, source);
  }

  /** The model as the user gave it: the converted file (an ONNX model, ...), else {@link #modelPath()}. */
  @JsonIgnore
  public String givenModelPath() {
    return source != null ? source.path() : modelPath;
  }

  /**
   * The run's model file: {@link #modelPath()}, which is absolute; a relative path (a manifest written
   * by an older hsdag) is tried from the working directory, then from the folder that holds {@code
   * runDir}'s parent ({@code runs/<name>} made where the run started).
   */
  public Path modelFile(Path runDir) {
    Path given = Path.of(modelPath);
    if (given.isAbsolute() || Files.isRegularFile(given)) {
      return given;
    }
    Path parent = runDir.toAbsolutePath().normalize().getParent();
    Path start = parent == null ? null : parent.getParent();
    Path there = start == null ? null : start.resolve(given);
    return there != null && Files.isRegularFile(there) ? there : given;
  }

  /**
   * The {@code --profile} a run measures with: a built-in name ({@code path} and {@code sha256}
   * null), or a profile file, kept by absolute path and content hash so that a resume accepts the
   * same content under any path and refuses a changed file. {@code mismatch} and {@code mismatchSeed}
   * are the {@code --mismatch} perturbation of the measured machine (0: none).
   */
  public record ProfileSource(String name, String path, String sha256, double mismatch, long mismatchSeed) {
    /** Describes {@code nameOrPath} as given to {@code --profile}, perturbed by {@code --mismatch} (0: not). */
    public static ProfileSource of(String nameOrPath, double mismatch, long mismatchSeed) throws IOException {
      Path p = Path.of(nameOrPath);
      if (Files.isRegularFile(p)) {
        return new ProfileSource(p.getFileName().toString(), p.toAbsolutePath().normalize().toString(),
            RunManifest.sha256(p),
            mismatch, mismatchSeed);
      }
      return new ProfileSource(nameOrPath, null, null, mismatch, mismatchSeed);
    }

    /** Whether the profile is a file rather than a built-in name. */
    @JsonIgnore
    public boolean isFile() {
      return path != null;
    }
  }

  /** Hex SHA-256 of a file's bytes. */
  public static String sha256(Path file) throws IOException {
    MessageDigest md;
    try {
      md = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buf)) > 0;) {
        md.update(buf, 0, n);
      }
    }
    return HexFormat.of().formatHex(md.digest());
  }
}
