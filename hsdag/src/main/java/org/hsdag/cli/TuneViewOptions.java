package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import org.hsdag.view.RunView;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The {@code --view} picocli mixin of {@code tune}: the live view served beside the tune, from its run folder; closing
 * it stops the server once an open page has the final state.
 */
public final class TuneViewOptions implements AutoCloseable {
  /** How long a finished tune waits for an open page to fetch the final state before it exits. */
  static final long FINAL_STATE_WAIT_MS = 3000;

  @Option(names = "--view",
      description = "Serve a live view of the run in the browser (progress, best so far, candidates, cost model, "
          + "placement, load) while it tunes; the URL is printed. 'hsdag view RUN_DIR' serves any run later.")
  boolean view;

  @Mixin
  ViewAddressOptions address = new ViewAddressOptions();

  private RunView started;

  /** Starts the view of {@code dir} with {@code --view} (the address options imply it); otherwise nothing. */
  void start(Path dir, PrintWriter err) throws IOException {
    if ((view || address.given()) && started == null) {
      started = address.start(dir, err);
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (started != null) {
      try {
        started.awaitFinalState(FINAL_STATE_WAIT_MS);
      } finally {
        started.close();
        started = null;
      }
    }
  }
}
