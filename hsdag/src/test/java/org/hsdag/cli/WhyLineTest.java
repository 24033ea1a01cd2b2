package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hsdag.tune.TestModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tune's {@code why:} line names the device that won the final race and takes its figures from the
 * model the early stop used, on simulated machines where each device wins in turn.
 */
class WhyLineTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern AT_MOST = Pattern.compile("at most ([0-9.]+) %");

  @TempDir
  Path tmp;

  /** The paper profile with GPU.1 a twin of its CPU, {@code speed} times as fast. */
  private Path twinProfile(String name, double speed) throws IOException {
    JsonNode paper;
    try (InputStream in = getClass().getResourceAsStream("/org/hsdag/cost/profiles/paper.json")) {
      paper = JSON.readTree(in);
    }
    ObjectNode profile = paper.deepCopy();
    profile.put("name", name);
    ArrayNode devices = JSON.createArrayNode();
    for (JsonNode d : paper.get("devices")) {
      if (d.get("name").asText().equals("CPU")) {
        devices.add(d);
        ObjectNode twin = d.deepCopy();
        twin.put("name", "GPU.1");
        twin.put("peakGflops", d.get("peakGflops").asDouble() * speed);
        twin.put("memoryBandwidthGBs", d.get("memoryBandwidthGBs").asDouble() * speed);
        devices.add(twin);
      }
    }
    profile.set("devices", devices);
    Path f = tmp.resolve(name + ".json");
    JSON.writeValue(f.toFile(), profile);
    return f;
  }

  private CliRun tune(String out, String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("tune", TestModels.twoBranch(tmp).toString(), "--backend", "sim",
        "--devices", "CPU,GPU.1", "--budget", "30", "--final-rounds", "2", "--seed", "3", "--out",
        tmp.resolve(out).toString()));
    args.addAll(List.of(extra));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(0, r.exitCode(), r.err() + r.out());
    return r;
  }

  private static String line(CliRun r, String prefix) {
    return r.out().lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(null);
  }

  private static void assertNamesTheWinner(CliRun r, String winner, String loser) {
    String best = line(r, "best: ");
    assertNotNull(best, r.out());
    assertTrue(best.startsWith("best: " + winner + "-only"), r.out());
    String why = line(r, "why: ");
    assertNotNull(why, r.out());
    assertTrue(why.startsWith("why: measured, " + winner + " alone won; by the cost model"), why);
    assertFalse(why.contains(loser + " alone is the fastest"), why);
    assertFalse(why.contains("over " + loser + " alone"), why);
    assertFalse(why.contains("NaN") || why.contains(" 0.00x"), why);
    assertNotNull(line(r, "trust: "), "every tune with a cost model says how far to trust it: " + r.out());
  }

  @Test
  void whenTheCpuWinsTheLineSaysSo() throws IOException {
    CliRun r = tune("cpu", "--profile", twinProfile("slow-twin", 0.5).toString());
    assertNamesTheWinner(r, "CPU", "GPU.1");
  }

  @Test
  void whenTheOtherDeviceWinsTheLineSaysSo() throws IOException {
    CliRun r = tune("gpu", "--profile", twinProfile("fast-twin", 2).toString());
    assertNamesTheWinner(r, "GPU.1", "CPU");
  }

  /** The cost model believes GPU.1 is the faster twin; the machine measured says CPU. */
  @Test
  void aCostModelThatRanksTheLoserFirstIsNotRepeatedAsTheReason() throws IOException {
    CliRun r = tune("wrong-model", "--profile", twinProfile("slow-twin", 0.5).toString(), "--proxy-profile",
        twinProfile("fast-twin", 2).toString());
    assertNamesTheWinner(r, "CPU", "GPU.1");
  }

  /** The stop reason and the why line quote the same bound: one model at one moment. */
  @Test
  void theStopReasonAndTheWhyLineQuoteOneModel() throws IOException {
    CliRun r = tune("one-model", "--profile", twinProfile("slow-twin", 0.5).toString(), "--mismatch", "0.3");
    String search = line(r, "search: ");
    String why = line(r, "why: ");
    assertNotNull(why, r.out());
    assertTrue(search.contains("no split can pay") || search.contains("no other split can pay"), search);
    List<String> stop = atMost(search);
    List<String> because = atMost(why);
    assertFalse(stop.isEmpty() || because.isEmpty(), "stop: " + search + "\nwhy: " + why);
    assertEquals(stop.get(stop.size() - 1), because.get(because.size() - 1), "stop: " + search + "\nwhy: " + why);
    Matcher n = Pattern.compile("corrected on (\\d+) measurements").matcher(search);
    assertTrue(n.find(), search);
    assertTrue(why.contains("corrected on " + n.group(1) + " measurements"), why);
  }

  private static List<String> atMost(String s) {
    List<String> out = new ArrayList<>();
    Matcher m = AT_MOST.matcher(s);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  @Test
  void theJsonAndTheReportCarryTheTrustLine() throws IOException {
    CliRun r = tune("json", "--profile", twinProfile("slow-twin", 0.5).toString(), "--json");
    JsonNode j = JSON.readTree(r.out());
    assertTrue(j.path("cost_model_trust").asText().contains("leave-one-out over"), r.out());
    String report = Files.readString(tmp.resolve("json/report.md"));
    assertTrue(report.contains("leave-one-out over"), report);
  }
}
