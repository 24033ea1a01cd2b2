package org.hsdag.cli;

/** Bad input a user can fix; the CLI prints the one-line message and exits with {@link ExitCodes#BAD_INPUT}. */
public class UserInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UserInputException(String message) {
    super(message);
  }
}
