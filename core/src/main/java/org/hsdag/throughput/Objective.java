package org.hsdag.throughput;

import java.util.Locale;

/**
 * What a placement is tuned for: the latency of one inference, or the inferences per second with
 * several requests in flight (HETERO's asynchronous requests pipeline their sub-models across the
 * devices, so a split's throughput is bounded by its busiest device, not by the sum of its stages).
 */
public enum Objective {
  LATENCY("latency"), THROUGHPUT("throughput");

  private final String label;

  Objective(String label) {
    this.label = label;
  }

  /** The name users type and files store: {@code latency} or {@code throughput}. */
  public String label() {
    return label;
  }

  /**
   * The objective called {@code text} (case-insensitive).
   *
   * @throws IllegalArgumentException naming the choices
   */
  public static Objective parse(String text) {
    String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    for (Objective o : values()) {
      if (o.label.equals(t)) {
        return o;
      }
    }
    throw new IllegalArgumentException("--objective '" + text + "' is not one of latency, throughput");
  }
}
