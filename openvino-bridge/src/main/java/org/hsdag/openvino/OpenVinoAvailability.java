package org.hsdag.openvino;

import java.io.File;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether the native OpenVINO backend can run in this JVM, and if not, exactly why and how to
 * fix it. The checks, in order: the JavaCPP runtime is on the class path; the JNI library was
 * built ({@code native/provision.sh} ran, in the build or through {@code ./hsdag.sh openvino install}); it
 * loads together with {@code libopenvino};
 * the runtime is OpenVINO {@value #MINIMUM_MAJOR}.0 or newer (HETERO manual affinities).
 *
 * @param status the outcome
 * @param version the OpenVINO build string when the library loaded, else empty
 * @param reason why the backend is unavailable (empty when available)
 * @param fix what the user can do about it (empty when available)
 */
public record OpenVinoAvailability(Status status, String version, String reason, String fix) {
  /** Oldest OpenVINO major version (year) the backend supports. */
  public static final int MINIMUM_MAJOR = 2024;

  /** The JavaCPP class whose static initialiser loads the JNI library. */
  static final String SHIM_CLASS = "org.hsdag.openvino.internal.OvShim";

  static final String RUNTIME_CLASS = "org.hsdag.openvino.internal.ShimRuntime";

  /** Base name of the JNI library JavaCPP builds for {@code OvShim}. */
  static final String JNI_LIBRARY = "jniOvShim";

  private static final Pattern VERSION = Pattern.compile("(\\d{4})\\.(\\d+)");

  /** The outcome of the checks. */
  public enum Status {
    AVAILABLE,
    /** {@code org.bytedeco:javacpp} is missing from the class path. */
    NO_JAVACPP,
    /** The JNI library is not in the build: provisioning did not run or could not. */
    NOT_BUILT,
    /** The JNI library exists but it or {@code libopenvino} does not load. */
    LIBRARY_NOT_FOUND,
    /** OpenVINO older than {@value OpenVinoAvailability#MINIMUM_MAJOR}.0. */
    VERSION_TOO_OLD
  }

  public OpenVinoAvailability {
    Objects.requireNonNull(status);
    version = version == null ? "" : version;
    reason = reason == null ? "" : reason;
    fix = fix == null ? "" : fix;
  }

  public boolean available() {
    return status == Status.AVAILABLE;
  }

  /** One line for the CLI: {@code openvino backend unavailable: <reason>. Fix: <fix>}. */
  public String oneLine() {
    return available()
        ? "openvino backend available (OpenVINO " + version + ")"
        : "openvino backend unavailable: " + reason + ". Fix: " + fix;
  }

  /** What the native layer reports; {@link #system()} asks the real JVM. */
  interface Probe {
    boolean javacppPresent();

    /** JavaCPP's platform name, e.g. {@code linux-x86_64}. */
    String platform();

    /** Whether the JNI library exists as a class-path resource or on {@code java.library.path}. */
    boolean jniLibraryPresent(String platform);

    /**
     * Loads the JNI library (and with it {@code libopenvino}) and returns the runtime version.
     *
     * @throws Throwable the linkage error as thrown
     */
    String loadAndReadVersion() throws Throwable;
  }

  /**
   * Probes this JVM once; later calls return the same answer. Loading a native library is
   * process-wide and cannot be retried (a second attempt after a failed class initialisation
   * would only report "could not initialize class"), so the first answer is the answer.
   */
  public static OpenVinoAvailability probe() {
    return ProbedOnce.VALUE;
  }

  /** Lazy holder: the JVM runs the probe on first use, exactly once. */
  private static final class ProbedOnce {
    static final OpenVinoAvailability VALUE = probe(system());
  }

  static OpenVinoAvailability probe(Probe p) {
    String buildHint = "run './hsdag.sh openvino install' (it installs the pinned OpenVINO wheel from PyPI into a private "
        + "venv and builds the shim against it; --python PY uses the OpenVINO of your own Python instead; "
        + "docs/real-hardware.md)";
    if (!p.javacppPresent()) {
      return new OpenVinoAvailability(Status.NO_JAVACPP, "",
          "the JavaCPP runtime (org.bytedeco:javacpp) is not on the class path",
          "run hsdag through ./hsdag.sh, or add org.bytedeco:javacpp:1.5.11 to the class path");
    }
    String platform = p.platform();
    if (!p.jniLibraryPresent(platform)) {
      return new OpenVinoAvailability(Status.NOT_BUILT, "",
          "hsdag was built without its native OpenVINO part (no " + System.mapLibraryName(JNI_LIBRARY)
              + " for " + platform + " in the build)",
          buildHint);
    }
    String version;
    try {
      version = p.loadAndReadVersion();
    } catch (Throwable t) {
      return new OpenVinoAvailability(Status.LIBRARY_NOT_FOUND, "",
          "the native backend is built but does not load (" + describe(t) + ")",
          "the OpenVINO it was built against moved or was removed: run './hsdag.sh openvino install' again");
    }
    int major = majorVersion(version);
    if (major > 0 && major < MINIMUM_MAJOR) {
      return new OpenVinoAvailability(Status.VERSION_TOO_OLD, version,
          "OpenVINO " + version + " is too old (HETERO manual affinities need " + MINIMUM_MAJOR + ".0 or newer)",
          buildHint);
    }
    return new OpenVinoAvailability(Status.AVAILABLE, version, "", "");
  }

  /**
   * Opens the real runtime.
   *
   * @throws OpenVinoUnavailableException when not {@link #available()}
   */
  public OpenVinoRuntime openRuntime() {
    if (!available()) {
      throw new OpenVinoUnavailableException(this);
    }
    try {
      // Reflective so that no JavaCPP type is linked unless the library is known to load.
      return Class.forName(RUNTIME_CLASS).asSubclass(OpenVinoRuntime.class).getConstructor().newInstance();
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw new OpenVinoException("cannot start the OpenVINO runtime: " + describe(cause));
    } catch (ReflectiveOperationException e) {
      throw new OpenVinoException("cannot start the OpenVINO runtime: " + describe(e));
    }
  }

  /**
   * Where the OpenVINO the native library was built against came from, as {@code native/provision.sh}
   * recorded it beside the library (e.g. {@code pinned wheel openvino==2026.4.1 in hsdag's private
   * venv …}), or empty when there is no record.
   */
  public static String runtimeSource() {
    return runtimeRecord().getProperty("source", "");
  }

  /**
   * The Python whose {@code openvino} package the native library was built against (its console
   * scripts, e.g. {@code benchmark_app}, sit beside it), or empty for an archive install or no record.
   */
  public static java.util.Optional<Path> runtimePython() {
    String python = runtimeRecord().getProperty("python", "");
    return python.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(Path.of(python));
  }

  /** What {@code native/provision.sh} recorded beside the library (empty when there is no record). */
  private static java.util.Properties runtimeRecord() {
    String platform = system().platform();
    String resource = SHIM_CLASS.substring(0, SHIM_CLASS.lastIndexOf('.')).replace('.', '/') + "/" + platform
        + "/openvino-runtime.properties";
    java.util.Properties p = new java.util.Properties();
    try (java.io.InputStream in = OpenVinoAvailability.class.getClassLoader().getResourceAsStream(resource)) {
      if (in != null) {
        p.load(new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8));
      }
    } catch (java.io.IOException e) {
      return new java.util.Properties();
    }
    return p;
  }

  /** The year-based major version of an OpenVINO build string ({@code 2025.1.0-18503-…} → 2025), or -1. */
  static int majorVersion(String version) {
    Matcher m = VERSION.matcher(version == null ? "" : version);
    return m.find() ? Integer.parseInt(m.group(1)) : -1;
  }

  private static String describe(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String msg = root.getMessage();
    return root.getClass().getSimpleName() + (msg == null ? "" : ": " + msg.replaceAll("\\s+", " ").trim());
  }

  static Probe system() {
    return new Probe() {
      @Override
      public boolean javacppPresent() {
        try {
          Class.forName("org.bytedeco.javacpp.Loader", false, OpenVinoAvailability.class.getClassLoader());
          return true;
        } catch (ClassNotFoundException | LinkageError e) {
          return false;
        }
      }

      @Override
      public String platform() {
        try {
          return (String) Class.forName("org.bytedeco.javacpp.Loader").getMethod("getPlatform").invoke(null);
        } catch (ReflectiveOperationException | LinkageError e) {
          return System.getProperty("os.name") + "-" + System.getProperty("os.arch");
        }
      }

      @Override
      public boolean jniLibraryPresent(String platform) {
        String file = System.mapLibraryName(JNI_LIBRARY);
        String resource = SHIM_CLASS.substring(0, SHIM_CLASS.lastIndexOf('.')).replace('.', '/') + "/" + platform + "/"
            + file;
        if (OpenVinoAvailability.class.getClassLoader().getResource(resource) != null) {
          return true;
        }
        for (String dir : System.getProperty("java.library.path", "").split(File.pathSeparator, -1)) {
          if (!dir.isEmpty() && Files.isRegularFile(Path.of(dir, file))) {
            return true;
          }
        }
        return false;
      }

      @Override
      public String loadAndReadVersion() throws Throwable {
        try {
          Class.forName(SHIM_CLASS, true, OpenVinoAvailability.class.getClassLoader());
          return (String) Class.forName(RUNTIME_CLASS).getMethod("runtimeVersion").invoke(null);
        } catch (InvocationTargetException e) {
          throw e.getCause();
        }
      }
    };
  }
}
