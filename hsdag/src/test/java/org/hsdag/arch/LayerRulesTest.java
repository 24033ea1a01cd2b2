package org.hsdag.arch;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.hsdag.testkit.LayerRules.NATIVE;
import static org.hsdag.testkit.LayerRules.SIMULATOR;
import static org.hsdag.testkit.LayerRules.noPackageNames;
import static org.hsdag.testkit.LayerRules.under;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Map;
import org.hsdag.plan.LatencyModel;
import org.hsdag.testkit.LayerRules;
import org.hsdag.throughput.ThroughputBackend;
import org.junit.jupiter.api.Test;

/**
 * The layers of the hsdag module, checked on its own main classes ({@code mvn -pl hsdag test} runs
 * them): everything here sits above the backend interface, so no class names a package of a backend,
 * only a capability ({@code MemoryLimiting}, {@code CallTiming}, ...); and the search sees the planner
 * only through {@code LatencyModel}. The simulator is also out of the compiler's reach (runtime scope
 * in hsdag/pom.xml). Each rule is run on planted violations ({@code org.hsdag.arch.layered}) to show
 * that it fails.
 */
class LayerRulesTest {
  /** The module's packages: all of them are above the backend interface. */
  private static final String[] PACKAGES = {"cli", "tune", "plan", "search", "strategy", "policy", "gnn", "train",
      "report"};

  /**
   * The classes that still name the native backend's package, and why. They are the commands about
   * the native runtime itself and the native read error and input-shape syntax; until they reach it
   * through a provider, hsdag/pom.xml keeps openvino-bridge in compile scope. The list may only
   * shrink: an entry that no longer needs its exemption fails {@link #everyExemptionIsStillNeeded}.
   */
  static final Map<String, String> NATIVE_EXEMPT = Map.of(
      "org.hsdag.cli.CalibrateCommand", "fits a profile from native measurements (CalibrationRun, CalibrationFit)",
      "org.hsdag.cli.CheckRuntimeCommand", "runs the native backend's end-to-end check on every device and on HETERO",
      "org.hsdag.cli.DevicesCommand", "prints where the native runtime was found (OpenVinoAvailability)",
      "org.hsdag.cli.HsdagCli", "turns the native reader's refusal into a one-line error, exit 2",
      "org.hsdag.cli.ModelValidation", "the same refusal while validating a model",
      "org.hsdag.cli.InputShapeOptions", "parses --input-shape with the native backend's syntax",
      "org.hsdag.cli.ModelSources", "converts ONNX, TensorFlow Lite and PaddlePaddle files with the native reader",
      "org.hsdag.cli.CostModelStore", "keeps cost models in the native backend's profile database",
      "org.hsdag.cli.CostModelStoreOptions", "opens that profile database for a command",
      "org.hsdag.cli.CostModelReuse", "asks the native backend what it reused from that database");

  /** Nothing in the module's packages under {@code root} names the simulator's package. */
  static ArchRule noSimulator(String root) {
    return noPackageNames(under(root, PACKAGES), SIMULATOR,
        "commands and the search ask the backend for a capability, not for the simulator");
  }

  /** Nothing in the module's packages under {@code root} names the native backend's package, but the exempt. */
  static ArchRule noNativeBackend(String root) {
    return noPackageNames(under(root, PACKAGES), NATIVE, NATIVE_EXEMPT,
        "commands ask the backend for a capability, not for the native backend");
  }

  /** The simulator's throughput decorator lives in core, beside the interface; above it, only the capability. */
  static ArchRule noThroughputDecorator(String root) {
    return noClasses().that().resideInAnyPackage(under(root, PACKAGES)).should()
        .dependOnClassesThat(belongToAnyOf(ThroughputBackend.class))
        .because("commands ask for ThroughputMeasuring, not for the decorator that provides it");
  }

  /** The search under {@code root} uses of the planner only its latency-model interface. */
  static ArchRule searchSeesOnlyTheLatencyModel(String root) {
    return noClasses().that().resideInAPackage(root + ".search..").should().dependOnClassesThat(
        resideInAPackage("org.hsdag.plan..").and(not(belongToAnyOf(LatencyModel.class))))
        .because("strategies and the engine consult a latency model; plans are made by strategies");
  }

  @Test
  void mainCodeKeepsToTheLayers() {
    JavaClasses classes = LayerRules.thisModule();
    for (String pkg : new String[] {"org.hsdag.cli", "org.hsdag.tune", "org.hsdag.search", "org.hsdag.plan"}) {
      assertTrue(classes.containPackage(pkg), "no classes of " + pkg + " in this module");
    }
    noSimulator("org.hsdag").check(classes);
    noNativeBackend("org.hsdag").check(classes);
    noThroughputDecorator("org.hsdag").check(classes);
    searchSeesOnlyTheLatencyModel("org.hsdag").check(classes);
  }

  @Test
  void everyExemptionIsStillNeeded() {
    LayerRules.exemptionsStillNeeded(LayerRules.thisModule(), NATIVE, NATIVE_EXEMPT.keySet());
  }

  @Test
  void theSimulatorRuleFailsOnAPlantedViolation() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> noSimulator("org.hsdag.arch.layered").check(LayerRules.planted("org.hsdag.arch.layered")));
    assertTrue(e.getMessage().contains("OpensTheSimulator"), e.getMessage());
  }

  @Test
  void theNativeRuleBansThePackageNotOnlyTheBackendClass() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> noNativeBackend("org.hsdag.arch.layered").check(LayerRules.planted("org.hsdag.arch.layered")));
    assertTrue(e.getMessage().contains("NamesTheNativeBackend"), e.getMessage());
    assertTrue(e.getMessage().contains("CalibratesByName"), e.getMessage());
    // A value type of the native package, not the backend itself: the class rule this replaced let it through.
    assertTrue(e.getMessage().contains("ReadsTheNativeOptions"), e.getMessage());
  }

  @Test
  void theSearchRuleFailsOnAPlantedViolation() {
    AssertionError e = assertThrows(AssertionError.class,
        () -> searchSeesOnlyTheLatencyModel("org.hsdag.arch.layered")
            .check(LayerRules.planted("org.hsdag.arch.layered")));
    assertTrue(e.getMessage().contains("Planner"), e.getMessage());
    assertTrue(e.getMessage().contains("RanksByTheProxy"), e.getMessage());
    assertFalse(e.getMessage().contains("LatencyModel>"), e.getMessage());
  }
}
