package org.hsdag.search;

/**
 * A resumed run whose strategy does not reproduce its own log (different options, a
 * non-deterministic strategy, or a changed model); continuing would mix two different searches.
 */
public class ResumeMismatchException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public ResumeMismatchException(String message) {
    super(message);
  }
}
