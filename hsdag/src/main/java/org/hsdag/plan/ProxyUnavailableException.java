package org.hsdag.plan;

/** No cost model can be had for the search as asked (a usage problem: the message says what to pass). */
public final class ProxyUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ProxyUnavailableException(String message) {
    super(message);
  }
}
