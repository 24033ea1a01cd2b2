package org.hsdag.bench.real;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BenchmarkAppRunTest {
  /** The tail of a real run (benchmark_app 2026.4.1, resnet50, -niter 20, on the dev machine). */
  private static final String LOG = """
      [ INFO ] First inference took 50.45 ms
      [Step 11/11] Dumping statistics report
      [ INFO ] Execution Devices:['CPU']
      [ INFO ] Count:            20 iterations
      [ INFO ] Duration:         983.59 ms
      [ INFO ] Latency:
      [ INFO ]    Median:        47.79 ms
      [ INFO ]    Average:       48.74 ms
      [ INFO ]    Min:           20.15 ms
      [ INFO ]    Max:           79.84 ms
      [ INFO ] Throughput:   20.33 FPS
      """;

  @Test
  void readsEveryLatencyFigureInMilliseconds() {
    assertEquals(new BenchmarkAppRun(47.79, 48.74, 20.15, 79.84, 20, 50.45), BenchmarkAppRun.parse(LOG));
  }

  @Test
  void microsecondFiguresAreConverted() {
    BenchmarkAppRun r = BenchmarkAppRun.parse(LOG.replace("47.79 ms", "33.03 us").replace("48.74 ms", "42.64 us")
        .replace("20.15 ms", "32.13 us").replace("79.84 ms", "73.80 us"));
    assertEquals(0.03303, r.medianMs(), 1e-12);
    assertEquals(0.04264, r.averageMs(), 1e-12);
  }

  @Test
  void aMissingFigureIsNamed() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> BenchmarkAppRun.parse(LOG.replace("Median", "Mid")));
    assertEquals("benchmark_app printed no 'Median:' line", e.getMessage());
  }
}
