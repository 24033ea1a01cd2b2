package org.hsdag.tune;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a tuning session ended; written to the log footer and {@code result.json} in lower case. */
public enum RunStatus {
  /** Searched, re-measured and wrote the result. */
  COMPLETED,
  /** Stopped on request (Ctrl-C); resumable. */
  INTERRUPTED,
  /** The search gave up (too many failures in a row). */
  FAILED;

  /** The word used in files: {@code completed}, {@code interrupted}, {@code failed}. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
