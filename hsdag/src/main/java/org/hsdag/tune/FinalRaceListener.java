package org.hsdag.tune;

import java.io.IOException;
import java.time.Instant;
import java.util.Locale;
import org.hsdag.backend.Measurement;
import org.hsdag.search.Finalist;
import org.hsdag.search.RemeasureListener;

/**
 * A tune's final race as it goes: each fresh measurement logged, progress shown, and no round started
 * that would end past {@code --time} (the run's time limit covers the race too).
 */
final class FinalRaceListener implements RemeasureListener {
  private final RunLog log;
  private final TuneListener listener;
  private final RunClock clock;
  private final TuneConfig config;

  FinalRaceListener(RunLog log, TuneListener listener, RunClock clock, TuneConfig config) {
    this.log = log;
    this.listener = listener;
    this.clock = clock;
    this.config = config;
  }

  @Override
  public void started(int total) {
    listener.finalStarted(total);
  }

  @Override
  public void measured(Finalist f, int round, Measurement m, boolean fresh, int done, int total) throws IOException {
    if (fresh) {
      log.append(LogRecord.measurement(Instant.now().toString(), clock.elapsed(), null, LogRecord.PHASE_FINAL, round,
          f.label(), f.placement(), m, false, config.protocol().describe(), Double.NaN));
    }
    listener.finalStep(done, total);
  }

  @Override
  public void ended(int done) {
    listener.finalStep(done, done);
  }

  @Override
  public boolean roundFits(int round, int measurements) {
    long limit = config.timeLimitSeconds();
    clock.raceRound(measurements);
    double roundSeconds = clock.forRaceMeasurements(measurements);
    if (limit <= 0 || measurements == 0 || clock.elapsed() + roundSeconds <= limit) {
      return true;
    }
    listener.note(String.format(Locale.ROOT, "--time: the final race stops after %d round%s (%d asked; %.0f of %d s "
        + "spent, a round takes about %.0f s)", round, round == 1 ? "" : "s", config.finalRounds(), clock.elapsed(),
        limit, roundSeconds));
    return false;
  }
}
