package org.hsdag.placement;

/** A placement that does not fit its graph or device set; the message is one line. */
public class InvalidPlacementException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public InvalidPlacementException(String message) {
    super(message);
  }
}
