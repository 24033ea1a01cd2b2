package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.hsdag.backend.Measurement;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.backend.Statistic;
import org.hsdag.models.TinyModels;
import org.hsdag.tune.RunManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker's bounds on a task's fields, and the coordinator's plausibility check of an answer. */
class WireChecksTest {
  private static final String SHA = "a".repeat(64);

  @TempDir
  Path tmp;

  private static WireMessage.MeasureTask task(MeasurementProtocol protocol, String shape, int[] deviceOf) {
    return WireMessage.MeasureTask.prototype(SHA, "sim", "paper", 1, shape, List.of("CPU", "GPU.1"), deviceOf, 1,
        protocol).sent(1, 1, "", 5);
  }

  @Test
  void aTaskOutOfBoundsIsRefusedWithItsReasonBeforeAnyBackendOpens() throws Exception {
    assertNull(TaskBounds.problem(task(MeasurementProtocol.PAPER, "input_ids=1,128", new int[] {0, 1})));
    assertNotNull(TaskBounds.problem(task(MeasurementProtocol.PAPER, "x=100000,100000,100", new int[] {0})));
    assertNotNull(TaskBounds.problem(task(MeasurementProtocol.PAPER, "x=99999999999999", new int[] {0})));
    assertNotNull(TaskBounds.problem(task(MeasurementProtocol.PAPER, null, new int[] {0, 2})));
    Path model = tmp.resolve("m.xml");
    TinyModels.transformer().writeTo(model, 7);
    WireMessage.MeasureTask huge = WireMessage.MeasureTask.prototype(RunManifest.sha256(model), "sim", "paper", 1,
        null, List.of("CPU"), new int[] {0}, 1, new MeasurementProtocol(0, 2_000_000_000, Statistic.MEDIAN, 1, 0))
        .sent(1, 1, "", 5);
    try (MeasuringService service = new MeasuringService(tmp, tmp.resolve("lock"), (s, shape, g, m) -> {
      throw new AssertionError("a backend was opened for an out-of-bounds task");
    })) {
      WireMessage.TaskDone answer = service.handle(huge, "w");
      assertNull(answer.measurement());
      assertTrue(answer.refusal().contains("2000000000"), answer.refusal());
    }
  }

  @Test
  void onlyAMeasurementTheProtocolCanProduceIsPlausible() {
    WireMessage.MeasureTask t = task(MeasurementProtocol.PAPER, null, new int[] {0});
    double[] samples = new double[10];
    Arrays.setAll(samples, i -> 8 + i * 0.01);
    Measurement honest = Measurement.of(samples, MeasurementProtocol.PAPER, 1, "sim", "paper");
    assertNull(AnswerCheck.problem(t, honest));
    assertNull(AnswerCheck.problem(t, Measurement.failed("could not compile", "sim", "paper")));
    assertNotNull(AnswerCheck.problem(t, Measurement.of(samples, MeasurementProtocol.PAPER, 1, "sim", "other")));
    Measurement claimed = new Measurement(true, samples, 0.5, 0.4, 0.6, 1, null, "sim", "paper");
    assertNotNull(AnswerCheck.problem(t, claimed));
    double[] negative = samples.clone();
    negative[9] = -1;
    assertNotNull(AnswerCheck.problem(t,
        new Measurement(true, negative, Double.NaN, Double.NaN, Double.NaN, 1, null, "sim", "paper")));
    assertNotNull(AnswerCheck.problem(t,
        Measurement.of(new double[20], MeasurementProtocol.PAPER.scaled(2), 1, "sim", "paper")));
  }
}
