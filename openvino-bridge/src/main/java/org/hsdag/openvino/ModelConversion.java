package org.hsdag.openvino;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.hsdag.io.AtomicFiles;
import org.hsdag.ir.IrException;
import org.hsdag.ir.ModelSource;
import org.hsdag.ir.IrReader;

/**
 * A model another framework wrote (ONNX, TensorFlow Lite, PaddlePaddle), read by the runtime's own frontend
 * ({@code read_model}) and written back by its serialiser ({@code ov::serialize}, no weight compression), kept as IR
 * in a folder per source content and runtime version with {@value ModelSource#FILE}: the source's path, format and
 * SHA-256. Every command given the same file then works on the same IR, converted once.
 *
 * <p>The conversion runs in a fresh runtime child: OpenVINO names the ops a file leaves unnamed ({@code
 * Constant_7}) by a count of the nodes its process made before, so only a first read in a fresh process gives the
 * names a fresh Python process gets from the same file — the names {@code apply}'s snippet finds.
 */
public final class ModelConversion {
  /** System property naming the folder of converted models (tests point it into {@code target/}). */
  public static final String DIR_PROPERTY = "hsdag.converted.dir";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TEMP_PREFIX = ".converting-";

  private ModelConversion() {}

  /**
   * An IR of a source.
   *
   * @param xml the IR (its {@code .bin} beside it)
   * @param source what it was converted from
   * @param reused whether an earlier conversion was found rather than made now
   */
  public record Converted(Path xml, ModelSource source, boolean reused) {
    /** The one line a command says about it. */
    public String line() {
      String what = source.path() + " (" + source.format() + ", SHA-256 " + source.sha256().substring(0, 12) + "…)";
      return reused ? what + ": the IR OpenVINO " + source.runtime() + " made of it before, " + xml
          : "converted " + what + " with OpenVINO " + source.runtime() + "'s reader and serialiser to " + xml;
    }
  }

  /** The folder: {@value #DIR_PROPERTY}, else {@code $XDG_CACHE_HOME/hsdag/converted}, else {@code ~/.cache/hsdag/converted}. */
  public static Path defaultDir() {
    String dir = System.getProperty(DIR_PROPERTY);
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("hsdag").resolve("converted");
  }

  /**
   * The IR of {@code source} in {@code dir}: the one converted before from the same content by the same runtime
   * version, else converted now in a runtime {@code fresh} opens (and closes).
   *
   * @param format what the source is, for the record and the messages ({@code ONNX}, ...)
   * @param runtimeVersion the runtime's version string (its first word keys the folder)
   * @throws IrException when the runtime cannot read the source (one line, its reason)
   * @throws IOException when the folder cannot be written
   */
  public static Converted convert(Path source, String format, String runtimeVersion, Path dir,
      Supplier<OpenVinoRuntime> fresh) throws IOException {
    String version = runtimeVersion.split("-", 2)[0];
    String sha = sha256(source);
    String stem = stem(source);
    Path folder = dir.resolve(stem + "-" + sha256(sha + "\n" + runtimeVersion).substring(0, 16));
    Path xml = folder.resolve(stem + ".xml");
    ModelSource wanted = new ModelSource(source.toAbsolutePath().normalize().toString(), format, sha, version);
    Optional<ModelSource> known = ModelSource.of(xml);
    if (known.isPresent() && known.get().sha256().equals(sha) && Files.isRegularFile(IrReader.defaultBinPath(xml))) {
      if (!known.get().equals(wanted)) {
        // The same content given under another path: the record names the latest, which a run then names.
        AtomicFiles.writeString(folder.resolve(ModelSource.FILE), JSON.writeValueAsString(wanted) + "\n");
      }
      return new Converted(xml, wanted, true);
    }
    Files.createDirectories(dir);
    sweep(dir);
    Path temp = Files.createTempDirectory(dir, TEMP_PREFIX);
    try {
      write(source, wanted, temp.resolve(stem + ".xml"), fresh);
      place(temp, folder);
    } finally {
      deleteTree(temp);
    }
    return new Converted(xml, wanted, false);
  }

  /** Reads {@code source} in a fresh runtime and writes its IR to {@code xml} with the record beside it. */
  private static void write(Path source, ModelSource record, Path xml, Supplier<OpenVinoRuntime> fresh)
      throws IOException {
    try (OpenVinoRuntime rt = fresh.get(); OpenVinoRuntime.Model m = rt.readModel(source.toAbsolutePath())) {
      m.save(xml);
    } catch (OpenVinoReadException e) {
      throw new IrException(source + ": OpenVINO " + record.runtime() + " cannot read this " + record.format()
          + " model: " + readerReason(e.getMessage(), source));
    } catch (RuntimeLostException e) {
      throw new IrException(source + ": OpenVINO " + record.runtime() + "'s reader ended while reading this "
          + record.format() + " model (" + e.getMessage() + ")");
    }
    AtomicFiles.writeString(xml.resolveSibling(ModelSource.FILE), JSON.writeValueAsString(record) + "\n");
  }

  /** Moves the finished {@code temp} to {@code folder}; a folder another process finished first is kept. */
  private static void place(Path temp, Path folder) throws IOException {
    if (Files.exists(folder)) {
      // Damaged or left by an older conversion: the new one replaces it.
      deleteTree(folder);
    }
    try {
      Files.move(temp, folder, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileSystemException e) {
      if (!Files.isDirectory(folder)) {
        throw e;
      }
    }
  }

  /** Removes what conversions killed a day or more ago left behind. */
  private static void sweep(Path dir) {
    Instant dayAgo = Instant.now().minus(Duration.ofDays(1));
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, TEMP_PREFIX + "*")) {
      for (Path p : s) {
        if (Files.getLastModifiedTime(p).toInstant().isBefore(dayAgo)) {
          deleteTree(p);
        }
      }
    } catch (IOException | UncheckedIOException e) {
      // another process may be sweeping too; what is left is swept next time
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> all = Files.walk(root)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** OpenVINO's reason without the source-file frames it prefixes ({@code Exception from src/...cpp:84:}). */
  static String readerReason(String message, Path source) {
    String m = message == null ? "" : message;
    String prefix = "cannot read " + source.toAbsolutePath() + ": ";
    m = m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    return m.replaceAll("Exception from \\S+:\\d+:\\s*", "").replaceAll("\\s+", " ").strip();
  }

  /** The file name without its extension. */
  static String stem(Path source) {
    String name = source.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }

  /** SHA-256 of the file, and of a PaddlePaddle model's parameters beside it: what the reader reads. */
  static String sha256(Path source) throws IOException {
    MessageDigest md = digest();
    digestFile(md, source);
    Path params = source.resolveSibling(stem(source) + ".pdiparams");
    if (source.getFileName().toString().endsWith(".pdmodel") && Files.isRegularFile(params)) {
      digestFile(md, params);
    }
    return HexFormat.of().formatHex(md.digest());
  }

  private static void digestFile(MessageDigest md, Path file) throws IOException {
    try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
      in.transferTo(java.io.OutputStream.nullOutputStream());
    }
  }

  private static String sha256(String text) {
    return HexFormat.of().formatHex(digest().digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  private static MessageDigest digest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /** The real runtime in a fresh child process, for {@link #convert}. */
  public static Supplier<OpenVinoRuntime> freshChild() {
    return IsolatedRuntime::java;
  }
}
