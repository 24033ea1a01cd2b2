package org.hsdag.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * No package of hsdag's main code depends on itself through others: every module's packages form
 * a directed acyclic graph (bench sees every module on its class path, so one rule covers them all).
 */
class PackageCycleTest {
  /** Main classes only: no test classes, no other module's test jar. */
  private static JavaClasses mainClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
        .importPackages("org.hsdag");
  }

  /** The rule every module is held to. */
  private static ArchRule noCycle() {
    return slices().matching("org.hsdag.(**)").should().beFreeOfCycles();
  }

  @Test
  void mainCodeHasNoPackageCycle() {
    JavaClasses classes = mainClasses();
    // Every module is imported, so a cycle cannot hide in a package the rule never saw.
    for (String pkg : new String[] {"org.hsdag.ir", "org.hsdag.coarsen", "org.hsdag.models", "org.hsdag.tune",
        "org.hsdag.bench"}) {
      assertTrue(classes.containPackage(pkg), "no classes of " + pkg + " on the class path");
    }
    noCycle().check(classes);
  }

  @Test
  void theRuleFailsOnACycle() {
    JavaClasses cyclic = new ClassFileImporter().importPackages("org.hsdag.arch.cyclic");
    AssertionError e = assertThrows(AssertionError.class, () -> noCycle().check(cyclic));
    assertTrue(e.getMessage().contains("Cycle detected"), e.getMessage());
  }
}
