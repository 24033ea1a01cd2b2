package org.hsdag.backend;

import java.util.Optional;

/**
 * A backend capability: the foreign load seen during its measurements so far (a real backend
 * wrapped in a {@link LoadWatchingBackend}). Progress displays read it between measurements.
 */
public interface LoadWatch {
  /** The load during the last measurement, empty before the first or when it could not be read. */
  Optional<MeasurementLoad> lastLoad();

  /** Totals over every measurement so far. */
  LoadTally tally();

  /** The policy applied. */
  LoadPolicy policy();
}
