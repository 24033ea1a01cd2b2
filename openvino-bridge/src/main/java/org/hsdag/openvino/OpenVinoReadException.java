package org.hsdag.openvino;

/** OpenVINO could not read a model file (its XML or its weights): bad input rather than a failure to run. */
public final class OpenVinoReadException extends OpenVinoException {
  private static final long serialVersionUID = 1L;

  public OpenVinoReadException(String message) {
    super(message);
  }
}
