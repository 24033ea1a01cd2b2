package org.hsdag.tune;

/**
 * A run folder cannot be started or continued as asked (it already holds a run, holds none, or
 * the model, backend or profile differ from the run's). Bad input: the folder is left untouched.
 */
public class RunRefusedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RunRefusedException(String message) {
    super(message);
  }
}
