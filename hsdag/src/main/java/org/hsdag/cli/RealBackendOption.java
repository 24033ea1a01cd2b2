package org.hsdag.cli;

import org.hsdag.backend.Backends;
import picocli.CommandLine.Option;

/**
 * {@code --backend} of the commands that only ever run the real runtime ({@code calibrate},
 * {@code check-runtime}): accepted as {@code openvino} (or {@code auto}), so that the options of a
 * real tune work there too; any other backend is bad input that says why.
 */
public final class RealBackendOption {
  /** The native backend's name as {@code --backend} takes it (its provider is registered, and not simulated). */
  static final String NATIVE = "openvino";

  @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = NATIVE,
      description = "openvino only (this command runs the real OpenVINO runtime); accepted so that a real tune's "
          + "options work here too. Default: ${DEFAULT-VALUE}.")
  String backend = NATIVE;

  /**
   * Checks the option.
   *
   * @throws UserInputException for a backend other than openvino or auto
   */
  public void require(String command) {
    String b = backend.trim();
    if (!b.equalsIgnoreCase(NATIVE) && !b.equalsIgnoreCase(Backends.AUTO)) {
      throw new UserInputException("--backend " + backend + ": " + command + " runs the real OpenVINO runtime only "
          + "(--backend openvino)");
    }
  }
}
