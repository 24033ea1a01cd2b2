package org.hsdag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.hsdag.tune.TuneConfig;
import picocli.CommandLine.Option;

/** The {@code --proxy} and {@code --proxy-profile} picocli mixin: which cost model a search plans with. */
public final class ProxyOptions {
  @Option(names = "--proxy", paramLabel = "auto|none", defaultValue = TuneConfig.PROXY_AUTO,
      description = "The cost model the search plans with before measuring: auto (the backend's own; with --mismatch, "
          + "the unperturbed --profile) or none (a cold search, as the paper). Default: ${DEFAULT-VALUE}.")
  String proxy = TuneConfig.PROXY_AUTO;

  @Option(names = "--proxy-profile", paramLabel = "NAME|FILE",
      description = "Plan with this simulator profile as the cost model instead (e.g. one fitted by 'hsdag calibrate').")
  String proxyProfile;

  /**
   * The choice as a run records it: {@code auto}, {@code none}, or a profile name or absolute file
   * path; with a perturbed simulator ({@code mismatch != 0}) auto means the unperturbed profile,
   * the cost model the user believes.
   */
  public String choice(BackendOptions backend) {
    String p = proxy.trim().toLowerCase(Locale.ROOT);
    if (!p.equals(TuneConfig.PROXY_AUTO) && !p.equals(TuneConfig.PROXY_NONE)) {
      throw new UserInputException("--proxy '" + proxy + "' is not one of auto, none");
    }
    if (proxyProfile != null) {
      if (p.equals(TuneConfig.PROXY_NONE)) {
        throw new UserInputException("--proxy none and --proxy-profile contradict each other");
      }
      Path file = Path.of(proxyProfile);
      return Files.isRegularFile(file) ? file.toAbsolutePath().normalize().toString() : proxyProfile;
    }
    return p.equals(TuneConfig.PROXY_AUTO) && backend.mismatch() != 0 ? backend.profile() : p;
  }
}
