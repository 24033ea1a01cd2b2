package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hsdag.models.TinyModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a tune prints on stderr in a fresh JVM, where the logging configuration the launcher ships
 * is the only one in force: hsdag's own lines, no engine noise; {@code --verbose} adds hsdag's log.
 */
class QuietOutputTest {
  /** A failure guard for a hung child, not a timing check. */
  private static final long PATIENCE_S = 300;

  @TempDir
  Path tmp;

  private String tuneStderr(String name, String... extra) throws IOException, InterruptedException {
    Path model = tmp.resolve("chain.xml");
    if (!Files.exists(model)) {
      TinyModels.chain().writeTo(model, 3);
    }
    List<String> args = new ArrayList<>(List.of("tune", model.toString(), "--devices", "CPU,GPU.1", "--backend", "sim",
        "--budget", "4", "--top-k", "1", "--final-rounds", "1", "--no-report", "--out", tmp.resolve(name).toString()));
    args.addAll(List.of(extra));
    return childStderr(name, args);
  }

  /** Runs the CLI with {@code args} in a fresh JVM; its stderr, after checking it exited 0. */
  private String childStderr(String name, List<String> args) throws IOException, InterruptedException {
    Path stderr = tmp.resolve(name + ".err");
    Process p = new ProcessBuilder(CliChild.command(List.of(), args))
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(stderr.toFile()).start();
    try {
      assertTrue(p.waitFor(PATIENCE_S, TimeUnit.SECONDS), "the " + args.get(0) + " child did not finish");
    } finally {
      p.destroyForcibly();
    }
    String err = Files.readString(stderr);
    assertEquals(0, p.exitValue(), err);
    return err;
  }

  /** The simulator's word about an op type it has no formula for reads like every other hsdag line. */
  @Test
  void theUnknownOpNoteIsInHsdagsOwnStyle() throws Exception {
    Path model = tmp.resolve("odd.xml");
    TinyModels.chain().writeTo(tmp.resolve("chain.xml"), 3);
    Files.writeString(model,
        Files.readString(tmp.resolve("chain.xml")).replaceFirst("type=\"ReLU\"( version=\"[^\"]*\")?",
            "type=\"Asinh\" version=\"opset4\""));
    String err = childStderr("plan", List.of("plan", model.toString(), "--backend", "sim", "--devices", "CPU,GPU.1"));
    assertEquals(1, err.lines().filter(l -> l.startsWith("hsdag: ") && l.contains("op type 'Asinh' (1 op)")).count(),
        err);
    assertFalse(err.contains("WARN"), err);
  }

  @Test
  void aQuietTunePrintsNoEngineOrLogLines() throws Exception {
    String err = tuneStderr("quiet", "--quiet");
    assertFalse(err.contains("CUDA"), err);
    assertFalse(err.contains("ai.djl"), err);
    assertFalse(err.contains("INFO"), err);
  }

  @Test
  void verboseAddsHsdagsOwnLog() throws Exception {
    String err = tuneStderr("verbose", "--verbose");
    assertTrue(err.contains("INFO") && err.contains("hsdag policy"), err);
    assertFalse(err.contains("CUDA"), err);
  }
}
