package org.hsdag.tune;

import java.util.ArrayList;
import java.util.List;
import org.hsdag.backend.TestDevice;

/**
 * The options a suggested command needs to measure a run's placements as the run did: its backend,
 * profile and mismatch, its test devices and its input sizes. A suggestion without them fails
 * (a CPU2 placement is not valid on the simulator) or measures something else.
 */
public final class RunOptions {
  private RunOptions() {}

  /** {@code --backend ... [--profile ...] [--mismatch ...] [--test-device ...] [--input-shape ...] [--...-length N]} of {@code mf}. */
  public static List<String> measuredAs(RunManifest mf) {
    List<String> args = new ArrayList<>(List.of("--backend", mf.backend()));
    RunManifest.ProfileSource source = mf.profileSource();
    if (source != null) {
      args.addAll(List.of("--profile", source.isFile() ? source.path() : source.name()));
      if (source.mismatch() != 0) {
        args.addAll(List.of("--mismatch", Double.toString(source.mismatch()), "--mismatch-seed",
            Long.toString(source.mismatchSeed())));
      }
    }
    args.addAll(testDevices(mf));
    args.addAll(inputSizes(mf));
    return args;
  }

  /** {@code --input-shape}, {@code --sequence-length} and {@code --past-length} of {@code mf}, as the run was given them. */
  public static List<String> inputSizes(RunManifest mf) {
    List<String> args = new ArrayList<>();
    if (mf.inputShape() != null) {
      args.addAll(List.of("--input-shape", mf.inputShape()));
    }
    if (mf.sequenceLength() > 0) {
      args.addAll(List.of("--sequence-length", Long.toString(mf.sequenceLength())));
    }
    if (mf.pastLength() > 0) {
      args.addAll(List.of("--past-length", Long.toString(mf.pastLength())));
    }
    return args;
  }

  /** {@code --test-device NAME:...} for every device of the run that was a registered CPU twin. */
  public static List<String> testDevices(RunManifest mf) {
    List<String> args = new ArrayList<>();
    testDeviceSpecs(mf).forEach(t -> args.addAll(List.of("--test-device", t)));
    return args;
  }

  /** The {@code --test-device} values of the run's registered CPU twins ({@code CPU2:threads=1:precision=f32}). */
  public static List<String> testDeviceSpecs(RunManifest mf) {
    return mf.deviceInfos().stream().flatMap(d -> TestDevice.fromMarked(d.name(), d.fullName()).stream())
        .map(TestDevice::toString).toList();
  }

  /** {@code prefix...} then {@code options}, as one argument array of a command line. */
  public static Object[] with(List<String> options, Object... prefix) {
    List<Object> all = new ArrayList<>(List.of(prefix));
    all.addAll(options);
    return all.toArray();
  }
}
