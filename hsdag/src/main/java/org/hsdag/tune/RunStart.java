package org.hsdag.tune;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.hsdag.ir.ModelSource;
import org.hsdag.backend.BackendRequest;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.LatencyBackend;
import org.hsdag.ir.IrReader;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;

/**
 * How a run folder starts and continues: a new run writes its manifest only while holding the
 * folder; a resume checks that the model, backend and profile are the ones the run measured with
 * (a profile file by content, under any path) and may only extend the budget or time. Every
 * refusal is a {@link RunRefusedException} and leaves the folder untouched.
 */
public final class RunStart {
  /** A tuning run splits a model, so it needs two devices. */
  public static final int MINIMUM_DEVICES = 2;

  private RunStart() {}

  /** The software a manifest records. */
  public record Software(String hsdagVersion, List<String> commandLine) {
    public Software {
      Objects.requireNonNull(hsdagVersion, "hsdagVersion");
      commandLine = List.copyOf(commandLine);
    }
  }

  /**
   * Writes the manifest of a new run into {@code folder} (held by this process).
   *
   * @param profile the simulator profile the run measures with, or null for a real backend
   * @throws RunRefusedException when the folder already holds a run
   */
  public static RunManifest begin(RunFolder folder, Path model, OpGraph graph, LatencyBackend backend,
      RunManifest.ProfileSource profile, InputShapeChoice shapes, TuneConfig config, Software software)
      throws IOException {
    if (folder.holdsRun()) {
      throw new RunRefusedException(folder.dir() + " already holds a run; continue it with --resume --out "
          + folder.dir() + " or choose another --out");
    }
    Path bin = IrReader.defaultBinPath(model);
    RunManifest manifest = new RunManifest(RunManifest.FORMAT, Instant.now().toString(), software.hsdagVersion(),
        System.getProperty("java.version"), System.getProperty("os.name") + " " + System.getProperty("os.arch"),
        hostName(), model.toAbsolutePath().normalize().toString(), graph.name(), RunManifest.sha256(model),
        Files.isRegularFile(bin) ? RunManifest.sha256(bin) : null, graph.nodeCount(), graph.edgeCount(),
        backend.name(), backend.profile(),
        profile,
        backend.simulated(), deviceInfos(backend, config.devices()), shapes.given(), shapes.inputs(),
        shapes.assumed(), shapes.sequenceLength(), shapes.pastLength(), config, software.commandLine(),
        ModelSource.of(model).orElse(null));
    manifest.write(folder.dir());
    return manifest;
  }

  /**
   * Undoes {@link RunFolder#lock} of a new run that never began: the lock file unless it was there before, and
   * the folder unless it was there before (and only when it is empty).
   */
  public static void unlock(Path dir, boolean dirExisted, boolean lockExisted) throws IOException {
    if (!lockExisted) {
      Files.deleteIfExists(dir.resolve(RunFolder.LOCK_FILE));
    }
    if (!dirExisted) {
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isEmpty()) {
          Files.delete(dir);
        }
      }
    }
  }

  /**
   * Takes back what {@link #begin} and the command wrote into a new run's folder (its manifest and objective) when
   * the run was refused before it measured anything; {@link #unlock} then leaves the folder as it was.
   */
  public static void abandon(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve(RunManifest.FILE));
    Files.deleteIfExists(dir.resolve(RunObjective.FILE));
  }

  /**
   * Refuses {@code dir} for a new run when it holds files but no run: they are the user's (a
   * {@code best.json} of theirs would be overwritten). Checked before the folder is locked, so
   * nothing is added to it.
   */
  public static void checkNewRunFolder(Path dir) throws IOException {
    if (!Files.isDirectory(dir) || Files.exists(dir.resolve(RunManifest.FILE))
        || Files.exists(dir.resolve(Tuner.LOG_FILE))) {
      return; // a new folder, or a run that begin() refuses with its own reason
    }
    try (var entries = Files.list(dir)) {
      List<String> names = entries.map(p -> p.getFileName().toString()).filter(n -> !n.equals(RunFolder.LOCK_FILE))
          .sorted()
          .toList();
      if (!names.isEmpty()) {
        throw new RunRefusedException("--out " + dir + " is not empty and holds no run (" + String.join(", ",
            names.subList(0, Math.min(3, names.size()))) + (names.size() > 3 ? ", ..." : "")
            + "); choose a new or empty folder");
      }
    }
  }

  /**
   * How a run sizes the model's dynamic inputs.
   *
   * @param given {@code --input-shape} as given, or null
   * @param inputs each dynamic input's size ({@code name=1x8})
   * @param assumed whether the sizes are the default assumption
   * @param sequenceLength {@code --sequence-length} as given, 0 when not
   * @param pastLength {@code --past-length} as given, 0 when not
   */
  public record InputShapeChoice(String given, List<String> inputs, boolean assumed, long sequenceLength,
      long pastLength) {
    public InputShapeChoice {
      inputs = List.copyOf(inputs);
    }
  }

  /**
   * What a resume asks for; null fields were not given.
   *
   * @param model the model path, or null for the one the run remembers
   * @param backend {@code --backend}, or null
   * @param profile {@code --profile}, or null
   * @param budget a new search budget, or null
   * @param timeLimitSeconds a new time limit, or null
   * @param inputShape {@code --input-shape}, or null
   * @param sequenceLength {@code --sequence-length}, 0 when not given
   * @param pastLength {@code --past-length}, 0 when not given
   */
  public record ResumeRequest(Path model, String backend, String profile, Integer budget, Long timeLimitSeconds,
      String inputShape, long sequenceLength, long pastLength) {}

  /**
   * A run ready to continue.
   *
   * @param manifest the manifest (rewritten when the limits changed)
   * @param model the model file
   * @param graph the model read from it
   * @param backend the backend to open, as the run began with it: backend, profile, {@code
   *     --mismatch}, seed and devices (the command adds the input shapes and test devices it resolves)
   */
  public record Resumption(RunManifest manifest, Path model, OpGraph graph, BackendRequest backend) {}

  /** Refuses a resume that gives {@code option} another value than the run measured with. */
  private static void refuseOtherLength(String option, long run, long asked) {
    if (asked != 0 && asked != run) {
      throw new RunRefusedException("this run measures with " + (run == 0 ? "the default " + option.substring(2)
          .replace('-', ' ') : option + " " + run) + "; it cannot continue with " + option + " " + asked);
    }
  }

  /**
   * Reads a run's manifest without holding its folder; refuses a folder that holds no run (and
   * creates nothing).
   */
  public static RunManifest manifestOf(Path dir) throws IOException {
    if (Files.isRegularFile(dir)) {
      throw new RunRefusedException(dir + " is a file, not a run folder");
    }
    try {
      return RunManifest.read(dir);
    } catch (NoSuchFileException e) {
      throw new RunRefusedException(
          dir + " holds no run to resume (no " + RunManifest.FILE + "); start one without --resume");
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new DamagedRunFileException(dir.resolve(RunManifest.FILE), "not a readable run manifest");
    }
  }

  /**
   * Checks that the run in {@code folder} (held by this process) can continue as {@code request}
   * asks, and records new limits in its manifest.
   *
   * @throws RunRefusedException with a one-line reason when it cannot
   */
  public static Resumption resume(RunFolder folder, ResumeRequest request) throws IOException {
    RunManifest mf = manifestOf(folder.dir());
    Path modelPath = request.model() != null ? request.model() : mf.modelFile(folder.dir());
    if (!Files.isRegularFile(modelPath)) {
      throw new RunRefusedException(modelPath + ": the run's model is not there any more; give its path: hsdag tune "
          + "MODEL.xml --resume --out " + folder.dir());
    }
    if (!RunManifest.sha256(modelPath).equals(mf.modelSha256())) {
      throw new RunRefusedException(
          modelPath + " is not the model this run tuned (its SHA-256 changed); start a new run");
    }
    OpGraph graph = new IrReader().read(modelPath);
    if (request.backend() != null && !request.backend().equals("auto") && !request.backend().equals(mf.backend())) {
      throw new RunRefusedException("this run measures with backend " + mf.backend() + "; it cannot continue with "
          + request.backend());
    }
    String profile = resumeProfile(mf, request.profile());
    if (request.inputShape() != null && !request.inputShape().equals(mf.inputShape())) {
      throw new RunRefusedException("this run measures with " + (mf.inputShape() == null ? "the default input sizes"
          : "--input-shape " + mf.inputShape()) + "; it cannot continue with --input-shape " + request.inputShape());
    }
    refuseOtherLength("--sequence-length", mf.sequenceLength(), request.sequenceLength());
    refuseOtherLength("--past-length", mf.pastLength(), request.pastLength());
    RunManifest updated = mf;
    if (request.budget() != null || request.timeLimitSeconds() != null) {
      TuneConfig c = mf.config();
      try {
        c = c.withLimits(request.budget() != null ? request.budget() : c.budget(),
            request.timeLimitSeconds() != null ? request.timeLimitSeconds() : c.timeLimitSeconds());
      } catch (IllegalArgumentException e) {
        throw new RunRefusedException(e.getMessage());
      }
      updated = mf.withConfig(c);
      updated.write(folder.dir());
    }
    RunManifest.ProfileSource source = mf.profileSource();
    BackendRequest.Mismatch mismatch = source == null ? BackendRequest.Mismatch.NONE
        : new BackendRequest.Mismatch(source.mismatch(), source.mismatchSeed());
    return new Resumption(updated, modelPath, graph, BackendRequest.of(mf.backend(), profile).withMismatch(mismatch)
        .withSeed(mf.config().seed()).requiring(mf.config().devices().names(), MINIMUM_DEVICES));
  }

  /**
   * The search measurements of a run whose last session completed (its log ends with a completed
   * footer), or empty when it did not complete.
   */
  public static OptionalInt completedMeasurements(Path dir) throws IOException {
    Path log = dir.resolve(Tuner.LOG_FILE);
    if (!Files.isRegularFile(log)) {
      return OptionalInt.empty();
    }
    List<LogRecord> records = RunLog.read(log).records();
    LogRecord last = records.isEmpty() ? null : records.get(records.size() - 1);
    if (last == null || !LogRecord.FOOTER.equals(last.type()) || !RunStatus.COMPLETED.label().equals(last.status())) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(last.info().get("measurements") instanceof Number n ? n.intValue() : 0);
  }

  /** The {@code --profile} to reopen the run's backend with. */
  private static String resumeProfile(RunManifest mf, String given) throws IOException {
    RunManifest.ProfileSource recorded = mf.profileSource();
    if (recorded == null) {
      // Older manifests and real backends: the profile is the name the backend reported.
      if (given != null && !given.equals(mf.profile())) {
        throw new RunRefusedException(
            "this run measures with profile " + mf.profile() + "; it cannot continue with " + given);
      }
      return mf.profile();
    }
    if (!recorded.isFile()) {
      if (given != null && !given.equals(recorded.name())) {
        throw new RunRefusedException(
            "this run measures with profile " + recorded.name() + "; it cannot continue with " + given);
      }
      return recorded.name();
    }
    Path file = given != null ? Path.of(given) : Path.of(recorded.path());
    if (!Files.isRegularFile(file)) {
      throw new RunRefusedException(given != null
          ? "this run measures with the profile file " + recorded.path() + "; " + given + " is not a file"
          : "this run's profile file " + recorded.path()
              + " is not there any more; pass --profile FILE with the same content");
    }
    if (!RunManifest.sha256(file).equals(recorded.sha256())) {
      throw new RunRefusedException(file + " is not the profile this run measured with (its content changed since "
          + mf.created() + "); resume with the original profile content or start a new run");
    }
    return file.toString();
  }

  private static List<DeviceInfo> deviceInfos(LatencyBackend backend, DeviceSet ds) {
    List<DeviceInfo> out = new ArrayList<>();
    for (String d : ds.names()) {
      out.add(backend.devices().stream().filter(i -> i.name().equals(d)).findFirst().orElse(new DeviceInfo(d, d)));
    }
    return out;
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
