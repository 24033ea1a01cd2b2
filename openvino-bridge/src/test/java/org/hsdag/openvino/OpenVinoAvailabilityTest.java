package org.hsdag.openvino;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.hsdag.openvino.OpenVinoAvailability.Status;
import org.junit.jupiter.api.Test;

class OpenVinoAvailabilityTest {
  /** A probe answering from fixed facts; {@code loadError} non-null makes loading fail with it. */
  private static OpenVinoAvailability.Probe probe(boolean javacpp, boolean built, Throwable loadError, String version) {
    return new OpenVinoAvailability.Probe() {
      @Override
      public boolean javacppPresent() {
        return javacpp;
      }

      @Override
      public String platform() {
        return "linux-x86_64";
      }

      @Override
      public boolean jniLibraryPresent(String platform) {
        return built;
      }

      @Override
      public String loadAndReadVersion() throws Throwable {
        if (loadError != null) {
          throw loadError;
        }
        return version;
      }
    };
  }

  @Test
  void missingJavaCppIsReportedFirst() {
    OpenVinoAvailability a = OpenVinoAvailability.probe(probe(false, false, null, ""));
    assertEquals(Status.NO_JAVACPP, a.status());
    assertTrue(a.reason().contains("org.bytedeco:javacpp"), a.reason());
  }

  @Test
  void aBuildWithoutTheNativeProfileSaysHowToRebuild() {
    OpenVinoAvailability a = OpenVinoAvailability.probe(probe(true, false, null, ""));
    assertEquals(Status.NOT_BUILT, a.status());
    assertTrue(a.reason().contains("native OpenVINO part"), a.reason());
    assertTrue(a.reason().contains(System.mapLibraryName("jniOvShim")), a.reason());
    assertTrue(a.fix().contains("./hsdag.sh openvino install") && a.fix().contains("--python"), a.fix());
    assertFalse(a.oneLine().contains("\n"));
    assertTrue(a.oneLine().startsWith("openvino backend unavailable: "), a.oneLine());
  }

  @Test
  void aLibraryThatDoesNotLoadCarriesTheLinkerMessageAndTheLibraryPathFix() {
    UnsatisfiedLinkError e = new UnsatisfiedLinkError("libopenvino.so.2500: cannot open shared object file");
    OpenVinoAvailability a = OpenVinoAvailability.probe(probe(true, true, new ExceptionInInitializerError(e), ""));
    assertEquals(Status.LIBRARY_NOT_FOUND, a.status());
    assertTrue(a.reason().contains("libopenvino.so.2500: cannot open shared object file"), a.reason());
    assertTrue(a.fix().contains("openvino install"), a.fix());
  }

  @Test
  void anOldRuntimeIsRejectedWithItsVersion() {
    OpenVinoAvailability a = OpenVinoAvailability
        .probe(probe(true, true, null, "2023.3.0-13775-ceeafaf64f3-releases/2023/3"));
    assertEquals(Status.VERSION_TOO_OLD, a.status());
    assertTrue(a.reason().contains("2023.3.0"), a.reason());
    assertTrue(a.reason().contains("2024.0"), a.reason());
  }

  @Test
  void aCurrentRuntimeIsAvailable() {
    OpenVinoAvailability a = OpenVinoAvailability
        .probe(probe(true, true, null, "2025.1.0-18503-6fec06580ab-releases/2025/1"));
    assertTrue(a.available());
    assertEquals("2025.1.0-18503-6fec06580ab-releases/2025/1", a.version());
    assertEquals("", a.reason());
  }

  @Test
  void majorVersionReadsTheYear() {
    assertEquals(2024, OpenVinoAvailability.majorVersion("2024.4.0-16579-c3152d32c9c-releases/2024/4"));
    assertEquals(2026, OpenVinoAvailability.majorVersion("custom_2026.0.0"));
    assertEquals(-1, OpenVinoAvailability.majorVersion("unknown"));
    assertEquals(-1, OpenVinoAvailability.majorVersion(null));
  }

  @Test
  void unavailableRuntimeCannotBeOpened() {
    OpenVinoAvailability a = OpenVinoAvailability.probe(probe(true, false, null, ""));
    OpenVinoUnavailableException e = assertThrows(OpenVinoUnavailableException.class, a::openRuntime);
    assertEquals(a.oneLine(), e.getMessage());
  }

  @Test
  void thisBuildWithoutTheNativeProfileReportsNotBuilt() {
    OpenVinoAvailability.Probe system = OpenVinoAvailability.system();
    assumeFalse(system.jniLibraryPresent(system.platform()),
        "skipped: the native library is built here; the @Tag(\"openvino\") tests cover it");
    OpenVinoAvailability a = OpenVinoBackend.availability();
    assertEquals(Status.NOT_BUILT, a.status());
    OpenVinoUnavailableException e = assertThrows(OpenVinoUnavailableException.class,
        () -> OpenVinoBackend.open(OpenVinoOptions.DEFAULT));
    assertTrue(e.getMessage().contains("openvino install"), e.getMessage());
  }
}
