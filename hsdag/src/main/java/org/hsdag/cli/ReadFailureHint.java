package org.hsdag.cli;

/**
 * The likely cause of OpenVINO's refusal to read a model, from its message: the weights hint fits only
 * failures about the weights, not an op type, an opset or an IR version OpenVINO does not know.
 */
final class ReadFailureHint {
  private ReadFailureHint() {}

  /** The parenthesised hint that follows OpenVINO's message. */
  static String of(String message) {
    String m = message == null ? "" : message;
    if (m.contains("doesn't contain the operation with type")) {
      return "(an op type this OpenVINO does not know: a custom op needs its extension, or the IR is damaged)";
    }
    if (m.contains("unsupported opset")) {
      return "(an opset this OpenVINO does not know: the IR was made by a newer or a foreign tool)";
    }
    if (m.contains("Unable to read the model")) {
      return "(an IR version or file this OpenVINO cannot read: see 'hsdag inspect' for the version it names)";
    }
    return "(a .bin that is not this model's own? stand-in weights: "
        + CommandName.line("models", "weights", "MODEL.xml", "--force") + ")";
  }
}
