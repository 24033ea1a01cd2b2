package org.hsdag.tune;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.hsdag.backend.MeasurementProtocol;
import org.hsdag.ir.OpGraph;
import org.hsdag.placement.DeviceSet;
import org.hsdag.plan.PlacementProxy;
import org.hsdag.cost.DeviceProfile;
import org.hsdag.sim.SimBackend;
import org.hsdag.sim.SimOptions;
import org.hsdag.testkit.FakeBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.hsdag.search.SearchStrategy;
import org.hsdag.search.StopReason;
import org.hsdag.strategy.Strategies;
import org.hsdag.strategy.StrategyConfig;

/** The learned strategy through the tuner: a stopped and resumed run ends where an uninterrupted one does. */
class HsdagResumeTest {
  @TempDir
  Path tmp;

  @Test
  void hsdagRunStoppedAndResumedEqualsTheUninterruptedRun() throws IOException {
    stoppedAndResumedEqualsUninterrupted(false, 9);
  }

  /** Warm: pre-trained on a cost model, then the planner's phase and the policy; stopped mid-run, resumed identically. */
  @Test
  void warmStartedRunStoppedAndResumedEqualsTheUninterruptedRun() throws IOException {
    stoppedAndResumedEqualsUninterrupted(true, 14);
  }

  /** One flipped byte in a checkpoint file: the resume notices, replays the log and still ends where the uninterrupted run does. */
  @Test
  void aFlippedByteInACheckpointFileIsDetectedAndTheLogReplayed() throws IOException {
    List<String> notes = new ArrayList<>();
    stoppedAndResumedEqualsUninterrupted(false, 9, 0, dir -> {
      try (Stream<Path> files = Files.walk(dir.resolve(Checkpoints.DIR))) {
        Path bin = files.filter(f -> f.getFileName().toString().equals("hsdag-trainer.bin")).findFirst().orElseThrow();
        byte[] bytes = Files.readAllBytes(bin);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(bin, bytes);
      }
    }, notes);
    assertTrue(notes.stream().anyMatch(n -> n.contains("hsdag-trainer.bin") && n.contains("checksum")
        && n.contains("replaying the whole log")), notes.toString());
  }

  /** Changes a stopped run's folder before it resumes. */
  private interface Damage {
    void apply(Path runDir) throws IOException;
  }

  /**
   * Warm with a patience: the planner phase and the veto's state (the corrected model's
   * measurements) are checkpointed, and a resumed run stops where the uninterrupted one does. This
   * small model's run converges within the planner phase (it moves single ops too), so it is
   * stopped there.
   */
  @Test
  void warmStartedRunWithItsStopRulesResumesIdentically() throws IOException {
    stoppedAndResumedEqualsUninterrupted(true, 6, 8, dir -> {
      // Checkpointed in the planner's phase: the policy had not been built, and its state is not saved.
      try (Stream<Path> files = Files.walk(dir.resolve(Checkpoints.DIR))) {
        List<String> names = files.map(f -> f.getFileName().toString()).toList();
        assertTrue(names.contains("learned-not-started") && !names.contains("hsdag-trainer.bin"), names.toString());
      }
    }, new ArrayList<>());
  }

  private void stoppedAndResumedEqualsUninterrupted(boolean warm, int stopAt) throws IOException {
    stoppedAndResumedEqualsUninterrupted(warm, stopAt, 0, dir -> {}, new ArrayList<>());
  }

  private void stoppedAndResumedEqualsUninterrupted(boolean warm, int stopAt, int patience, Damage damage,
      List<String> resumeNotes) throws IOException {
    OpGraph graph = TestModels.read(TestModels.twoBranch(tmp));
    DeviceSet devices = DeviceSet.of("CPU", "GPU.1");
    StrategyConfig options = Strategies.configure("hsdag",
        Map.of("steps", "4", "torch-threads", "1", "warm-start", "" + warm,
            "pretrain", warm ? "5" : "0"));
    TuneConfig c = new TuneConfig(devices, "hsdag", options, 24, 0, 3,
        MeasurementProtocol.PAPER, 2, 2, 5, patience);
    PlacementProxy proxy = warm
        ? PlacementProxy.ofSim(new SimBackend(DeviceProfile.load("paper"), SimOptions.exact()), graph, devices)
        : null;

    Path refDir = tmp.resolve("ref");
    SearchStrategy strategy = c.newStrategy();
    TuneResult reference = new Tuner(new TuneJob(FakeBackend.cpuGpu(), graph, c, strategy, refDir, null, proxy, null))
        .run(false);
    close(strategy);
    assertTrue(reference.steps() > stopAt, "the run goes past the interruption: " + reference.stopReason());
    if (patience > 0) {
      assertTrue(reference.stop() == StopReason.CONVERGED || reference.stop() == StopReason.STRATEGY_FINISHED,
          "it stops by its stop rules: " + reference.stopReason());
    }

    Path dir = tmp.resolve("resumed");
    AtomicReference<Tuner> ref = new AtomicReference<>();
    SearchStrategy first = c.newStrategy();
    Tuner t = new Tuner(new TuneJob(FakeBackend.cpuGpu(), graph, c, first, dir, new TuneListener() {
      @Override
      public void searchStep(TuneProgress p) {
        if (p.step() == stopAt) {
          ref.get().requestStop();
        }
      }
    }, proxy, null));
    ref.set(t);
    assertEquals(RunStatus.INTERRUPTED, t.run(false).status());
    close(first);

    damage.apply(dir);
    SearchStrategy second = c.newStrategy();
    TuneResult resumed = new Tuner(new TuneJob(FakeBackend.cpuGpu(), graph, c, second, dir, new TuneListener() {
      @Override
      public void note(String message) {
        resumeNotes.add(message);
      }
    }, proxy, null)).run(true);
    close(second);
    TunerTest.assertSameOutcome(reference, resumed, refDir, dir);
  }

  private static void close(SearchStrategy s) {
    if (s instanceof AutoCloseable a) {
      try {
        a.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
