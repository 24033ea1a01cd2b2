package org.hsdag.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import org.hsdag.openvino.OpenVinoBackend;
import org.hsdag.plan.LatencyModel;
import org.hsdag.sim.SimBackend;
import org.hsdag.throughput.ThroughputBackend;
import org.junit.jupiter.api.Test;

/**
 * The layers the build enforces, beside {@link PackageCycleTest}: what sits above the backend
 * interface (commands, tuner, planner, search, strategies, policy, reports, cluster) never names a
 * concrete backend — it asks for a capability ({@code MemoryLimiting}, {@code ThroughputMeasuring},
 * {@code CostModelSource}, {@code CallTiming}, ...) — and the search sees the planner only through
 * {@code LatencyModel}, never its implementations. Each rule is also run on a small planted violation
 * ({@code org.hsdag.arch.layered}) to show that it fails.
 */
class LayerRulesTest {
  /** The packages above the backend interface, under {@code root}. */
  private static final String[] ABOVE_BACKENDS = {"cli", "tune", "plan", "search", "strategy", "policy", "gnn",
      "train", "report", "cluster"};

  private static JavaClasses mainClasses() {
    return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
        .importPackages("org.hsdag");
  }

  private static JavaClasses planted() {
    return new ClassFileImporter().importPackages("org.hsdag.arch.layered");
  }

  /** Nothing above the backend interface under {@code root} names the simulator or its throughput decorator. */
  static ArchRule noSimulatorAboveBackends(String root) {
    return noClasses().that().resideInAnyPackage(above(root)).should()
        .dependOnClassesThat(belongToAnyOf(SimBackend.class, ThroughputBackend.class))
        .because("commands and the search ask the backend for a capability, not for the simulator");
  }

  /**
   * Nothing above the backend interface under {@code root} names the native backend, not even the
   * commands about the native runtime ({@code calibrate}, {@code selftest}): they ask for a
   * capability ({@code CallTiming}, ...) or use the runtime's own tools.
   */
  static ArchRule noNativeBackendAboveBackends(String root) {
    return noClasses().that().resideInAnyPackage(above(root)).should()
        .dependOnClassesThat(belongToAnyOf(OpenVinoBackend.class))
        .because("commands ask the backend for a capability, not for the native backend");
  }

  /** The search under {@code root} uses of the planner only its latency-model interface. */
  static ArchRule searchSeesOnlyTheLatencyModel(String root) {
    return noClasses().that().resideInAPackage(root + ".search..").should().dependOnClassesThat(
        resideInAPackage("org.hsdag.plan..").and(not(belongToAnyOf(LatencyModel.class))))
        .because("strategies and the engine consult a latency model; plans are made by strategies");
  }

  private static String[] above(String root) {
    return Arrays.stream(ABOVE_BACKENDS).map(p -> root + "." + p + "..").toArray(String[]::new);
  }

  @Test
  void mainCodeKeepsToTheLayers() {
    JavaClasses classes = mainClasses();
    for (String pkg : new String[] {"org.hsdag.cli", "org.hsdag.search", "org.hsdag.sim", "org.hsdag.cluster"}) {
      assertTrue(classes.containPackage(pkg), "no classes of " + pkg + " on the class path");
    }
    noSimulatorAboveBackends("org.hsdag").check(classes);
    noNativeBackendAboveBackends("org.hsdag").check(classes);
    searchSeesOnlyTheLatencyModel("org.hsdag").check(classes);
  }

  @Test
  void theSimulatorRuleFailsOnAPlantedViolation() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> noSimulatorAboveBackends("org.hsdag.arch.layered").check(planted()));
    assertTrue(e.getMessage().contains("OpensTheSimulator"), e.getMessage());
  }

  @Test
  void theNativeBackendRuleFailsOnAPlantedViolationAndExemptsNoCommand() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> noNativeBackendAboveBackends("org.hsdag.arch.layered").check(planted()));
    assertTrue(e.getMessage().contains("NamesTheNativeBackend"), e.getMessage());
    assertTrue(e.getMessage().contains("CalibratesByName"), e.getMessage());
  }

  @Test
  void theSearchRuleFailsOnAPlantedViolation() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> searchSeesOnlyTheLatencyModel("org.hsdag.arch.layered").check(planted()));
    assertTrue(e.getMessage().contains("Planner"), e.getMessage());
    assertTrue(e.getMessage().contains("RanksByTheProxy"), e.getMessage());
    assertFalse(e.getMessage().contains("LatencyModel>"), e.getMessage());
  }
}
