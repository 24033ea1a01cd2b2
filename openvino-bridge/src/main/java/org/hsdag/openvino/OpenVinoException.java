package org.hsdag.openvino;

/** An error reported by OpenVINO through the shim; the message is OpenVINO's own text. */
public class OpenVinoException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public OpenVinoException(String message) {
    super(message);
  }
}
