package org.hsdag.tune;

/** Another process is tuning in the same run folder (it holds the folder's lock). */
public class RunFolderBusyException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public RunFolderBusyException(String message) {
    super(message);
  }
}
