package org.hsdag.cluster;

import static org.hsdag.testkit.LayerRules.NATIVE;
import static org.hsdag.testkit.LayerRules.SIMULATOR;
import static org.hsdag.testkit.LayerRules.noPackageNames;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import org.hsdag.testkit.LayerRules;
import org.junit.jupiter.api.Test;

/**
 * The cluster module's layer, checked on its own main classes ({@code mvn -pl cluster test} runs it):
 * coordinator and workers move measurements; a worker opens its backend from the request it is sent,
 * through the providers, so no class here names a backend's package, simulator or native.
 */
class ClusterLayerRulesTest {
  private static final String[] PACKAGES = {"org.hsdag.cluster.."};

  @Test
  void mainCodeNamesNoBackendPackage() {
    JavaClasses classes = LayerRules.thisModule();
    assertTrue(classes.containPackage("org.hsdag.cluster"), "no classes of org.hsdag.cluster in this module");
    noPackageNames(PACKAGES, SIMULATOR, "a worker opens the backend it is asked for through the providers")
        .check(classes);
    noPackageNames(PACKAGES, NATIVE, "a worker opens the backend it is asked for through the providers")
        .check(classes);
  }
}
