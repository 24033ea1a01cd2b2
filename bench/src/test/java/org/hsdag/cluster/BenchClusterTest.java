package org.hsdag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hsdag.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --cluster}: the same figures as the bench measured on this machine (simulator). */
@Timeout(600)
class BenchClusterTest {
  @TempDir
  Path tmp;

  private List<String> benchArgs(Fleet fleet, Path out, String... extra) {
    List<String> args = new ArrayList<>(List.of("bench", fleet.model.toString(), "--methods", "brkga,random",
        "--budget", "20",
        "--seeds", "1", "--reference-factor", "0", "--final-rounds", "2", "--backend", "sim", "--devices", "CPU,GPU.1",
        "--out", out.toString()));
    args.addAll(List.of(extra));
    return args;
  }

  @Test
  void aBenchMeasuredByTwoWorkersHasTheFiguresOfTheLocalOne() throws Exception {
    Fleet fleet = new Fleet(tmp, "coordinator", "w1", "w2");
    CliRun local = CliRun.of(benchArgs(fleet, tmp.resolve("local")).toArray(String[]::new));
    assertEquals(0, local.exitCode(), local.err());
    int port = Fleet.freePort();
    String seed = "127.0.0.1:" + port;
    try (WorkerNode w1 = fleet.worker("w1", null, port, seed, b -> b);
        WorkerNode w2 = fleet.worker("w2", null, 0, seed, b -> b)) {
      CliRun cluster = CliRun.of(benchArgs(fleet, tmp.resolve("cluster"), "--cluster", seed, "--cluster-tls",
          fleet.certs.resolve("coordinator").toString(), "--cluster-workers", "2").toArray(String[]::new));
      assertEquals(0, cluster.exitCode(), cluster.err());
      assertTrue(cluster.err().contains("cluster: measured by") || cluster.out().contains("cluster: measured by"),
          cluster.out() + cluster.err());
    }
    assertEquals(timeless(tmp.resolve("local")), timeless(tmp.resolve("cluster")));
  }

  /** results.json without wall-clock fields and paths. */
  private static JsonNode timeless(Path out) throws Exception {
    JsonNode root = Fleet.JSON.readTree(out.resolve("results.json").toFile());
    strip(root);
    return root;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode o) {
      List<String> drop = new ArrayList<>();
      o.fieldNames().forEachRemaining(f -> {
        String l = f.toLowerCase(java.util.Locale.ROOT);
        if (l.contains("wall") || l.contains("time") || l.contains("elapsed") || l.contains("seconds")
            || l.equals("out")
            || l.contains("created")) {
          drop.add(f);
        }
      });
      o.remove(drop);
    }
    node.forEach(BenchClusterTest::strip);
  }
}
