package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bad option value is named in the user's terms (the option, the rule), never in Java's. */
class OptionErrorsTest {
  @TempDir
  Path tmp;
  private Path model;

  @BeforeEach
  void writeModel() throws IOException {
    model = TestModels.twoBranch(tmp);
  }

  private static void assertUserTerms(CliRun r, String expected) {
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertEquals("hsdag: " + expected, r.err().strip());
  }

  private CliRun tune(String option, String value) {
    return CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--budget", "3", option,
        value,
        "--out", tmp.resolve("run").toString());
  }

  @Test
  void eachCountOptionNamesItselfAndItsBound() {
    assertUserTerms(tune("--steps", "0"), "--steps must be at least 1 (got 0)");
    assertUserTerms(tune("--episodes", "0"), "--episodes must be at least 1 (got 0)");
    assertUserTerms(tune("--top-k", "-1"), "--top-k must be at least 0 (got -1)");
    assertUserTerms(tune("--final-rounds", "-1"), "--final-rounds must be at least 0 (got -1)");
    assertUserTerms(tune("--patience", "-3"), "--patience must be at least 0 (got -3)");
    assertUserTerms(tune("--checkpoint-every", "0"), "--checkpoint-every must be at least 1 (got 0)");
    assertFalse(Files.exists(tmp.resolve("run")), "nothing written");
  }

  @Test
  void anEmptyDeviceNameIsRefused() {
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,,GPU.1", "--budget", "3",
        "--out", tmp.resolve("run").toString());
    assertUserTerms(r, "--devices: an empty device name in 'CPU,,GPU.1'");
    assertUserTerms(CliRun.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1,"),
        "--devices: an empty device name in 'CPU,GPU.1,'");
  }

  @Test
  void aTimeLimitBelowOneSecondIsRefusedNotRoundedUp() {
    assertUserTerms(tune("--time", "0s"), "--time must be at least 1s (got 0s)");
    assertUserTerms(tune("--time", "500ms"), "--time must be at least 1s (got 500ms)");
  }

  @Test
  void aProtocolIsJudgedInItsOwnSyntax() {
    assertUserTerms(tune("--protocol", "0+0:median"),
        "--protocol 0+0:median: RUNS (in WARMUP+RUNS) must be at least 1");
    assertUserTerms(tune("--protocol", "1+4:mean-of-last-9"),
        "--protocol 1+4:mean-of-last-9: K of mean-of-last-K must be between 1 and RUNS (4)");
    assertUserTerms(tune("--protocol", "1+4:trimmed-mean-0.7"),
        "--protocol 1+4:trimmed-mean-0.7: F of trimmed-mean-F must be at least 0 and below 0.5");
  }

  @Test
  void calibrationRecordsWithoutTheirFieldsSayWhichIsMissing() throws IOException {
    Path records = Files.writeString(tmp.resolve("records.json"), "{}");
    CliRun r = CliRun.of("calibrate", model.toString(), "--from-records", records.toString(), "-o",
        tmp.resolve("p.json").toString());
    assertUserTerms(r, records + ": bad calibration records (no \"model\" field)");
  }

  @Test
  void anXmlDocumentTypeDeclarationIsNamedAsSuch() throws IOException {
    Path dtd = Files.writeString(tmp.resolve("dtd.xml"),
        "<?xml version=\"1.0\"?>\n<!DOCTYPE net [<!ENTITY x \"y\">]>\n<net name=\"a\" version=\"11\"><layers></layers></net>\n");
    CliRun r = CliRun.of("inspect", dtd.toString());
    assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
    assertTrue(
        r.err().strip().equals("hsdag: " + dtd + ":2: has a document type declaration (<!DOCTYPE ...>), which an "
            + "OpenVINO IR never has"),
        r.err());
  }
}
