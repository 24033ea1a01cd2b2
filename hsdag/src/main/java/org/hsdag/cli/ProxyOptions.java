package org.hsdag.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.hsdag.backend.BackendRequest;
import org.hsdag.plan.ProxyChoice;
import picocli.CommandLine.Option;

/** The {@code --proxy} and {@code --proxy-profile} picocli mixin: which cost model a search plans with. */
public final class ProxyOptions {
  @Option(names = "--proxy", paramLabel = "auto|none", defaultValue = "auto",
      description = "The cost model the search plans with before measuring: auto (the backend's own; with --mismatch, "
          + "the unperturbed --profile) or none (a cold search, as the paper). Default: ${DEFAULT-VALUE}.")
  String proxy = "auto";

  @Option(names = "--proxy-profile", paramLabel = "NAME|FILE",
      description = "Plan with this simulator profile as the cost model instead (e.g. one fitted by 'hsdag calibrate').")
  String proxyProfile;

  /**
   * The choice as a run records it; a profile file becomes its absolute path. On a perturbed
   * simulator ({@code backend} has a mismatch) auto means the unperturbed profile, the cost model
   * the user believes.
   */
  public ProxyChoice choice(BackendRequest backend) {
    String p = proxy.trim().toLowerCase(Locale.ROOT);
    ProxyChoice given = ProxyChoice.parse(p);
    if (given instanceof ProxyChoice.Profile) {
      throw new UserInputException("--proxy '" + proxy + "' is not one of auto, none");
    }
    if (proxyProfile != null) {
      if (ProxyChoice.NONE.equals(given)) {
        throw new UserInputException("--proxy none and --proxy-profile contradict each other");
      }
      Path file = Path.of(proxyProfile);
      return new ProxyChoice.Profile(
          Files.isRegularFile(file) ? file.toAbsolutePath().normalize().toString() : proxyProfile);
    }
    return ProxyChoice.AUTO.equals(given) && backend.mismatch().any() ? new ProxyChoice.Profile(backend.profile())
        : given;
  }
}
