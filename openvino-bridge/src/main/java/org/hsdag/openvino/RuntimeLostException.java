package org.hsdag.openvino;

/**
 * The runtime child died or gave no answer in time: it was ended, its models and compiled models are
 * gone, and the next call starts a fresh child. The message is the reason a measurement records
 * ({@code crashed the runtime (signal 11, SIGSEGV)}, {@code no answer in 30 s …}).
 */
public final class RuntimeLostException extends OpenVinoException {
  private static final long serialVersionUID = 1L;

  public RuntimeLostException(String message) {
    super(message);
  }
}
