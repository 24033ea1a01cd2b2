package org.hsdag.testkit;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/**
 * The layer rules every module's tests apply to the main code of that module, so that {@code mvn -pl
 * <module> test} runs them. A backend is a package: the simulator ({@value #SIMULATOR}) and the native
 * OpenVINO backend ({@value #NATIVE}); code above the backend interface asks {@code org.hsdag.backend}
 * for a capability and never names either package, whatever class of it.
 */
public final class LayerRules {
  /** The simulator backend's package, with its sub-packages. */
  public static final String SIMULATOR = "org.hsdag.sim..";
  /** The native OpenVINO backend's package, with its sub-packages (the JavaCPP mapping). */
  public static final String NATIVE = "org.hsdag.openvino..";

  private LayerRules() {}

  /**
   * The main classes of the module the test runs in ({@code target/classes}; Surefire runs in the
   * module's folder). Classes of other modules they refer to are seen by name only, which is all a
   * package rule needs.
   */
  public static JavaClasses thisModule() {
    Path classes = Path.of("target", "classes");
    assertTrue(Files.isDirectory(classes), "no compiled main classes at " + classes.toAbsolutePath());
    return new ClassFileImporter().importPath(classes);
  }

  /** The planted violations under {@code root} (test classes), to show a rule fails. */
  public static JavaClasses planted(String root) {
    return new ClassFileImporter().importPackages(root);
  }

  /** {@code root.p..} for every {@code p}: a package and its sub-packages. */
  public static String[] under(String root, String... packages) {
    return Arrays.stream(packages).map(p -> root + "." + p + "..").toArray(String[]::new);
  }

  /**
   * No class in {@code packages} depends on a class in {@code banned} (package patterns), except the
   * classes named as keys of {@code exempt} (fully qualified, nested classes included), each with the
   * reason it is exempt.
   */
  public static ArchRule noPackageNames(String[] packages, String banned, Map<String, String> exempt, String because) {
    DescribedPredicate<JavaClass> exempted = DescribedPredicate.describe("exempt " + exempt.keySet(),
        c -> exempt.containsKey(topLevel(c).getName()));
    return noClasses().that().resideInAnyPackage(packages).and(DescribedPredicate.not(exempted)).should()
        .dependOnClassesThat(resideInAnyPackage(banned)).because(because);
  }

  /** {@link #noPackageNames} without exemptions. */
  public static ArchRule noPackageNames(String[] packages, String banned, String because) {
    return noPackageNames(packages, banned, Map.of(), because);
  }

  /**
   * Every exempt class exists in {@code classes} and still depends on {@code banned}: an exemption that
   * is no longer needed fails, so the list only shrinks.
   */
  public static void exemptionsStillNeeded(JavaClasses classes, String banned, Set<String> exempt) {
    DescribedPredicate<JavaClass> inBanned = resideInAnyPackage(banned);
    for (String name : exempt) {
      assertTrue(classes.contain(name), "exempt class " + name + " is gone: drop its exemption");
      boolean uses = classes.stream().filter(c -> topLevel(c).getName().equals(name))
          .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
          .anyMatch(d -> inBanned.test(d.getTargetClass()));
      assertTrue(uses, name + " no longer depends on " + banned + ": drop its exemption");
    }
  }

  private static JavaClass topLevel(JavaClass c) {
    JavaClass top = c;
    while (top.getEnclosingClass().isPresent()) {
      top = top.getEnclosingClass().get();
    }
    return top;
  }
}
