package org.hsdag.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Locale;
import org.hsdag.backend.LoadTally;
import org.hsdag.backend.LoadWatch;
import org.hsdag.backend.MeasurementLoad;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.hsdag.tune.TuneListener;
import org.hsdag.tune.TuneProgress;
import org.hsdag.tune.TuneResult;

/**
 * Shows a tuning run's progress on stderr: a live progress bar (measurements done, best latency so
 * far and its speedup over the reference device alone, labelled with backend and profile) on a terminal, plain lines
 * about every tenth of the budget otherwise (logs, CI), nothing in quiet or JSON mode.
 */
final class TuneProgressPrinter implements TuneListener {
  enum Mode { BAR, LINES, NONE }

  private final Mode mode;
  private final PrintWriter err;
  private final PrintStream terminal;
  private ProgressBar bar;
  private int nextLineAt;
  private int lineEvery = 1;
  private LoadWatch load;

  TuneProgressPrinter(Mode mode, PrintWriter err, PrintStream terminal) {
    this.mode = mode;
    this.err = err;
    this.terminal = terminal;
  }

  /** Shows the foreign load {@code watch} saw during the last measurement in each progress line. */
  void watchLoad(LoadWatch watch) {
    this.load = watch;
  }

  @Override
  public void searchStarted(TuneProgress p) {
    if (mode == Mode.BAR) {
      // With --time alone the bar runs over the time limit, not over a budget of a million measurements.
      bar = new ProgressBarBuilder().setTaskName("tune").setInitialMax(byTime(p) ? p.timeLimitSeconds() : p.budget())
          .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250).setUnit(byTime(p) ? " s" : " meas", 1)
          .setConsumer(new ConsoleProgressBarConsumer(terminal)).build();
      bar.stepTo(barPosition(p));
      bar.setExtraMessage(shortExtra(p));
    } else if (mode == Mode.LINES) {
      lineEvery = Math.max(1, p.budget() / 10);
      nextLineAt = (p.measurements() / lineEvery + 1) * lineEvery;
      err.println("hsdag: searching: " + p.budgetText() + " done" + (p.timeLimitSeconds() > 0
          ? String.format(Locale.ROOT, " (--time covers the whole run: %.0f s went to the set-up, the cost model and "
              + "the baselines; the search leaves time for the final race)", p.elapsedSeconds())
          : "") + "; " + extra(p));
      err.flush();
    }
  }

  @Override
  public void searchStep(TuneProgress p) {
    if (mode == Mode.BAR && bar != null) {
      bar.stepTo(barPosition(p));
      bar.setExtraMessage(shortExtra(p) + shortLoad());
    } else if (mode == Mode.LINES && p.measurements() >= nextLineAt) {
      nextLineAt += lineEvery;
      err.printf(Locale.ROOT, "hsdag: %s, %.1f s; %s%s%n", p.budgetText(), p.elapsedSeconds(), extra(p), loadLine());
      err.flush();
    }
  }

  @Override
  public void finalStarted(int total) {
    closeBar();
    if (mode != Mode.NONE && total > 0) {
      err.println(
          "hsdag: re-measuring the best candidates and the baselines (up to " + total + " interleaved measurements, "
              + "then more rounds for any still within noise of the fastest; fewer once the pick is settled)...");
      err.flush();
    }
  }

  @Override
  public void note(String message) {
    if (mode != Mode.NONE) {
      closeBar();
      err.println("hsdag: " + message);
      err.flush();
    }
  }

  @Override
  public void finished(TuneResult result) {
    closeBar();
  }

  void closeBar() {
    if (bar != null) {
      bar.close();
      bar = null;
    }
  }

  /** {@code ; load 1.3 of 2 cores busy with other processes, run queue 4 (so far 3 re-taken, 1 flagged)}, or nothing. */
  String loadLine() {
    if (load == null || load.lastLoad().isEmpty()) {
      return "";
    }
    LoadTally t = load.tally();
    return "; " + load.lastLoad().get().describe() + " (so far " + t.retaken() + " re-taken, " + t.flagged()
        + " flagged)";
  }

  /** {@code  load 1.3/2} for the bar, with a {@code !} when that measurement was flagged. */
  String shortLoad() {
    if (load == null || load.lastLoad().isEmpty()) {
      return "";
    }
    MeasurementLoad l = load.lastLoad().get();
    return String.format(Locale.ROOT, " load %.1f/%d%s", l.foreignCores(), l.cores(), l.flagged() ? "!" : "");
  }

  private static boolean byTime(TuneProgress p) {
    return p.budget() >= TuneProgress.UNLIMITED_BUDGET && p.timeLimitSeconds() > 0;
  }

  private static long barPosition(TuneProgress p) {
    return byTime(p) ? (long) Math.min(p.elapsedSeconds(), (double) p.timeLimitSeconds()) : p.measurements();
  }

  /** The bar's message, short enough for an 80-column terminal; the run header names backend and profile. */
  static String shortExtra(TuneProgress p) {
    String count = byTime(p) ? p.measurements() + " meas, " : "";
    if (Double.isNaN(p.bestMs())) {
      return count;
    }
    String s = count + String.format(Locale.ROOT, "best %.3f ms", p.bestMs());
    if (!Double.isNaN(p.referenceMs())) {
      s += String.format(Locale.ROOT, " %.2fx %s", p.speedupOverReference(), p.reference().replaceFirst("-only$", ""));
    }
    return s + (p.simulated() ? " (sim)" : "");
  }

  static String extra(TuneProgress p) {
    if (Double.isNaN(p.bestMs())) {
      return "no successful measurement yet";
    }
    // One measurement each: the final race re-measures the best and may still return a single device.
    String s = String.format(Locale.ROOT, "best measured once %.3f ms", p.bestMs());
    if (!Double.isNaN(p.referenceMs())) {
      s += String.format(Locale.ROOT, " = %.2fx %s", p.speedupOverReference(), p.reference());
    }
    return s + " (" + (p.simulated() ? "simulated, " : "") + p.backend() + "/" + p.profile() + "; the final race "
        + "decides)";
  }
}
