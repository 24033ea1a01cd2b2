package org.hsdag.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hsdag.cli.CliRun;
import org.hsdag.tune.LogRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The live view's server without a browser: where it listens, what it refuses, and the state it reads. */
class RunViewTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path work;
  private static Path finished;

  @BeforeAll
  static void run() throws IOException {
    finished = ViewRuns.finishedRun(work);
  }

  @Test
  void listensOnLoopbackByDefaultAndBeyondItOnlyWhenTold() throws IOException {
    try (RunView view = RunView.start(finished, RunView.Binding.loopback(), false)) {
      assertTrue(view.address().isLoopbackAddress(), view.address().toString());
      assertTrue(view.uri().toString().startsWith("http://127.0.0.1:"), view.uri().toString());
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RunView.start(finished, new RunView.Binding("0.0.0.0", 0), false));
    assertTrue(e.getMessage().contains("--view-address"), e.getMessage());
    assertTrue(new RunView.Binding("0.0.0.0", 0).beyondLoopback());
    assertFalse(RunView.Binding.loopback().beyondLoopback());
  }

  @Test
  void servesOnlyItsOwnFilesToLoopbackHostsAndNeverWrites() throws IOException {
    try (RunView view = RunView.start(finished, RunView.Binding.loopback(), false)) {
      int port = view.uri().getPort();
      assertTrue(raw(port, "GET / HTTP/1.1", "127.0.0.1:" + port).startsWith("HTTP/1.1 200"));
      assertTrue(raw(port, "GET /view.js HTTP/1.1", "localhost:" + port).startsWith("HTTP/1.1 200"));
      assertTrue(raw(port, "GET /run/report.html HTTP/1.1", "localhost").startsWith("HTTP/1.1 200"));
      for (String path : new String[] {"/manifest.json", "/../manifest.json", "/run/../manifest.json",
          "/run/%2e%2e/manifest.json", "/run/..%2fmanifest.json", "/run/log.jsonl", "//etc/passwd", "/view.js/"}) {
        assertTrue(raw(port, "GET " + path + " HTTP/1.1", "localhost").startsWith("HTTP/1.1 404"), path);
      }
      assertTrue(raw(port, "POST /api/state HTTP/1.1", "localhost").startsWith("HTTP/1.1 405"));
      assertTrue(raw(port, "GET /api/state HTTP/1.1", "attacker.example:" + port).startsWith("HTTP/1.1 403"),
          "a page elsewhere that rebinds its name to 127.0.0.1 cannot read the run");
    }
  }

  @Test
  void readsAFinishedRunAsItsResult() throws IOException {
    JsonNode state = JSON.readTree(JSON.writeValueAsBytes(ViewState.of(finished)));
    JsonNode result = JSON.readTree(finished.resolve("result.json").toFile());
    assertEquals("completed", state.path("phase").asText());
    assertFalse(state.path("live").asBoolean());
    assertEquals(result.path("decision").asText(), state.path("final").path("decision").asText());
    assertEquals(2, state.path("baselines").size(), state.toString());
    assertEquals(result.path("candidates").size(), state.path("candidates").size());
    assertTrue(state.path("progress").path("measurements").asInt() > 0, state.toString());
    assertEquals(result.path("best").path("label").asText(), state.path("placement").path("label").asText());
    // The simulator's cost model predicted each search measurement before it ran.
    assertTrue(state.path("trust").path("points").size() > 0, state.path("trust").toString());
  }

  @Test
  void readsEachPhaseOfARunningRunFromItsFolder() throws IOException {
    Path live = work.resolve("phases");
    assertEquals("starting", ViewState.of(live).path("phase").asText());
    ViewRuns.Replay replay = new ViewRuns.Replay(finished, live);
    assertEquals("cost-model build", ViewState.of(live).path("phase").asText());
    replay.untilMeasurements(LogRecord.PHASE_BASELINE, 1);
    assertEquals("baselines", ViewState.of(live).path("phase").asText());
    replay.untilMeasurements(LogRecord.PHASE_SEARCH, 2);
    JsonNode searching = ViewState.of(live);
    assertEquals("search", searching.path("phase").asText());
    assertTrue(searching.path("live").asBoolean());
    assertEquals(2, searching.path("series").size());
    replay.untilMeasurements(LogRecord.PHASE_FINAL, 1);
    assertEquals("final race", ViewState.of(live).path("phase").asText());
    replay.finish();
    assertEquals("completed", ViewState.of(live).path("phase").asText());
  }

  @Test
  void aDamagedLogIsSaidNotServedAsData() throws IOException {
    Path damaged = work.resolve("damaged");
    ViewRuns.Replay replay = new ViewRuns.Replay(finished, damaged);
    replay.finish();
    String log = Files.readString(damaged.resolve("log.jsonl"));
    Files.writeString(damaged.resolve("log.jsonl"), log.replaceFirst("\"latency_ms\":[0-9.]+", "\"latency_ms\":0.001"));
    JsonNode state = ViewState.of(damaged);
    assertEquals("damaged", state.path("phase").asText());
    assertTrue(state.path("error").asText().contains("log.jsonl"), state.toString());
  }

  @Test
  void viewRefusesWhatIsNotARunFolderInOneLine() throws IOException {
    CliRun missing = CliRun.of("view", work.resolve("nowhere").toString());
    assertEquals(2, missing.exitCode(), missing.err());
    assertEquals(1, missing.err().lines().count(), missing.err());
    Path empty = Files.createDirectories(work.resolve("empty"));
    CliRun notRun = CliRun.of("view", empty.toString());
    assertEquals(2, notRun.exitCode(), notRun.err());
    assertTrue(notRun.err().contains("not a run folder"), notRun.err());
    CliRun badPort = CliRun.of("view", finished.toString(), "--view-port", "70000");
    assertEquals(2, badPort.exitCode(), badPort.err());
    assertTrue(badPort.err().startsWith("hsdag: --view-port"), badPort.err());
  }

  @Test
  void tuneWithViewPrintsTheLoopbackAddressAndFinishes() throws IOException {
    Path model = work.resolve("tiny_transformer.xml");
    Path out = work.resolve("viewed");
    CliRun r = CliRun.of("tune", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1", "--strategy",
        "random", "--budget", "4", "--top-k", "2", "--final-rounds", "1", "--out", out.toString(), "--quiet",
        "--view");
    assertEquals(0, r.exitCode(), r.err());
    assertTrue(r.err().contains("live view of " + out + " at http://127.0.0.1:"), r.err());
    assertEquals("completed", ViewState.of(out).path("phase").asText());
  }

  /** One request over a plain socket, so the Host header and the path go out exactly as written. */
  private static String raw(int port, String requestLine, String host) throws IOException {
    try (Socket s = new Socket(java.net.InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(5000);
      OutputStream out = s.getOutputStream();
      out.write((requestLine + "\r\nHost: " + host + "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
