package org.hsdag.search;

/**
 * A search set-up the user can fix: an unknown strategy or method, a strategy option it does not
 * have or a value it cannot take, a method whose device is not among the devices. The CLI prints
 * the one-line message and exits with code 2.
 */
public class SearchConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public SearchConfigException(String message) {
    super(message);
  }
}
