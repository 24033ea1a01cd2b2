package org.hsdag.bench.jmh;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.hsdag.backend.LoadProbe;
import org.hsdag.backend.LoadSample;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a real tune pays per load sample (two per measurement): listing this process's descendants (the runtime child
 * is one) the way {@link LoadProbe#descendants} does, against {@link ProcessHandle#descendants}, which reads the stat
 * of every process on the machine; and the whole sample. A child JVM stands in for the runtime child.
 *
 * <pre>
 * ./hsdag.sh jmh LoadProbeBenchmark -f 1 -wi 2 -i 3
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@org.openjdk.jmh.annotations.Measurement(iterations = 3, time = 1)
@Fork(1)
public class LoadProbeBenchmark {
  private Process child;
  private final LoadProbe probe = LoadProbe.proc();

  @Setup
  public void startChild() throws IOException {
    String java = ProcessHandle.current().info().command().orElse("java");
    child = new ProcessBuilder(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        "org.hsdag.bench.jmh.LoadProbeBenchmark$Idle").start();
  }

  @TearDown
  public void endChild() {
    child.destroy();
  }

  @Benchmark
  public List<Long> taskChildren() {
    return LoadProbe.descendants();
  }

  @Benchmark
  public long processHandleWalk() {
    return ProcessHandle.current().descendants().count();
  }

  @Benchmark
  public Optional<LoadSample> wholeSample() {
    return probe.sample();
  }

  /** The stand-in child: a JVM that waits. */
  public static final class Idle {
    private Idle() {}

    public static void main(String[] args) throws InterruptedException {
      Thread.sleep(TimeUnit.MINUTES.toMillis(10));
    }
  }
}
