package org.hsdag.ir;

/** A malformed, inconsistent or unreadable IR; the message is one line naming file, line or layer. */
public class IrException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public IrException(String message) {
    super(message);
  }

  public IrException(String message, Throwable cause) {
    super(message, cause);
  }
}
