package org.hsdag.arch;

import static org.hsdag.testkit.LayerRules.NATIVE;
import static org.hsdag.testkit.LayerRules.SIMULATOR;
import static org.hsdag.testkit.LayerRules.noPackageNames;
import static org.hsdag.testkit.LayerRules.under;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.hsdag.testkit.LayerRules;
import org.junit.jupiter.api.Test;

/**
 * The layers of the bench module, checked on its own main classes ({@code mvn -pl bench test} runs
 * them). Every bench package is in one of three groups, and a new package must be put in one:
 *
 * <ul>
 *   <li>the harness (the {@code bench} command, the runner, the report, the IR-reading scale test)
 *       names no backend package: it compares methods through the backend interface;
 *   <li>the simulator experiments ({@code plan}, {@code throughput}, {@code jmh}) may name the
 *       simulator, because they judge picks against its noise-free latency, deliberately mismatch its
 *       profile ({@code ProfileMismatch}) or time the simulator itself; they never name the native
 *       backend;
 *   <li>{@code real} is exempt from both: its figures measure the native backend itself (timed calls,
 *       isolation, calibration) beside benchmark_app and the simulator they are compared with.
 * </ul>
 */
class BenchLayerRulesTest {
  /** The harness: the root package itself and these sub-packages. */
  private static final String[] HARNESS = {"run", "report", "scale"};
  private static final String[] SIMULATOR_EXPERIMENTS = {"plan", "throughput", "jmh"};
  private static final String[] EXEMPT = {"real"};

  private static String[] harness(String root) {
    return Stream.concat(Stream.of(root), Stream.of(under(root, HARNESS))).toArray(String[]::new);
  }

  static List<ArchRule> rules(String root) {
    return List.of(
        noPackageNames(harness(root), SIMULATOR, "the harness compares methods through the backend interface"),
        noPackageNames(harness(root), NATIVE, "the harness compares methods through the backend interface"),
        noPackageNames(under(root, SIMULATOR_EXPERIMENTS), NATIVE,
            "simulator experiments judge against the simulator; real-runtime figures live in bench.real"));
  }

  @Test
  void mainCodeKeepsToTheLayers() {
    JavaClasses classes = LayerRules.thisModule();
    rules("org.hsdag.bench").forEach(rule -> rule.check(classes));
  }

  @Test
  void everyBenchPackageIsInAGroup() {
    Set<String> grouped = new TreeSet<>(Set.of("org.hsdag.bench"));
    Stream.of(HARNESS, SIMULATOR_EXPERIMENTS, EXEMPT).flatMap(Stream::of)
        .forEach(p -> grouped.add("org.hsdag.bench." + p));
    Set<String> found = new TreeSet<>();
    for (JavaClass c : LayerRules.thisModule()) {
      found.add(c.getPackageName());
    }
    assertTrue(found.contains("org.hsdag.bench.real"), "no bench classes found: " + found);
    // JMH generates its harness classes into sub-packages of jmh; they belong to it.
    found.removeIf(p -> p.startsWith("org.hsdag.bench.jmh."));
    assertEquals(grouped, found, "put each bench package in one group of this test");
  }

  @Test
  void theRulesFailOnPlantedViolations() {
    JavaClasses planted = LayerRules.planted("org.hsdag.arch.planted");
    List<ArchRule> rules = rules("org.hsdag.arch.planted");
    String simulator = assertThrows(AssertionError.class, () -> rules.get(0).check(planted)).getMessage();
    assertTrue(simulator.contains("RunsOnTheSimulator"), simulator);
    String nativeBackend = assertThrows(AssertionError.class, () -> rules.get(2).check(planted)).getMessage();
    assertTrue(nativeBackend.contains("MeasuresNatively"), nativeBackend);
  }
}
