package org.hsdag.cli;

import org.hsdag.backend.Backends;
import org.hsdag.openvino.OpenVinoBackend;
import picocli.CommandLine.Option;

/**
 * {@code --backend} of the commands that only ever run the real runtime ({@code calibrate},
 * {@code selftest}): accepted as {@code openvino} (or {@code auto}), so that the options of a
 * real tune work there too; any other backend is bad input that says why.
 */
public final class RealBackendOption {
  @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = OpenVinoBackend.NAME,
      description = "openvino only (this command runs the real OpenVINO runtime); accepted so that a real tune's "
          + "options work here too. Default: ${DEFAULT-VALUE}.")
  String backend = OpenVinoBackend.NAME;

  /**
   * Checks the option.
   *
   * @throws UserInputException for a backend other than openvino or auto
   */
  public void require(String command) {
    String b = backend.trim();
    if (!b.equalsIgnoreCase(OpenVinoBackend.NAME) && !b.equalsIgnoreCase(Backends.AUTO)) {
      throw new UserInputException("--backend " + backend + ": " + command + " runs the real OpenVINO runtime only "
          + "(--backend openvino)");
    }
  }
}
