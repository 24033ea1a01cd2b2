package org.hsdag.backend;

/** A backend that cannot be opened on this machine or build (for example OpenVINO without its native library). */
public class BackendUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BackendUnavailableException(String message) {
    super(message);
  }

  public BackendUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
