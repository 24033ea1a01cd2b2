package org.hsdag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code plan} and {@code tune} on the real backend build their cost models on the per-machine profile database:
 * another model file with the same ops profiles none of them again (its designed splits are its own and are
 * measured), {@code --fresh-profile} reads nothing and refreshes it, and the summary says how many records came
 * from it.
 */
@Tag("openvino")
class RealProfileDatabaseTest {
  private static final Pattern LINE = Pattern.compile("profile database: (\\d+) of (\\d+) op records reused, (\\d+) "
      + "profiled");

  @TempDir
  Path tmp;

  private static CliRun real(String command, Path model, Path cache, String... more) {
    List<String> args = new ArrayList<>(List.of(command, model.toString(), "--devices", "CPU,CPU2", "--backend",
        "openvino", "--test-device", "CPU2:precision=f32", "--cost-model-cache", cache.toString()));
    args.addAll(List.of(more));
    CliRun r = CliRun.of(args.toArray(String[]::new));
    assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
    return r;
  }

  /** reused, total, profiled of the run's database line. */
  private static int[] counts(String text) {
    Matcher m = LINE.matcher(text);
    assertTrue(m.find(), "no profile database line in: " + text);
    return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
  }

  @Test
  void anotherModelWithTheSameOpsProfilesNoneOfThemAgain() throws Exception {
    Path model = RealTinyModel.write(tmp);
    Path cache = tmp.resolve("cache");
    CliRun first = real("plan", model, cache);
    int[] c = counts(first.out());
    assertEquals(0, c[0], first.out());
    assertEquals(c[1], c[2], "all profiled: " + first.out());
    assertTrue(Files.isRegularFile(cache.resolve("profiles.db")));

    // Another file (so another model entry), the same ops: the op records serve, the designed splits are measured.
    Path other = tmp.resolve("other");
    Files.createDirectories(other);
    Path copy = other.resolve("copy.xml");
    Files.writeString(copy, Files.readString(model) + "\n<!-- a copy -->\n");
    Files.copy(tmp.resolve("tiny_transformer.bin"), other.resolve("copy.bin"));
    CliRun second = real("plan", copy, cache);
    assertTrue(second.out().contains("cost model built in "), "the model's own fit is built: " + second.out());
    int[] s = counts(second.out());
    assertEquals(List.of(c[1], c[1], 0), List.of(s[0], s[1], s[2]), second.out());

    CliRun fresh = real("plan", copy, cache, "--fresh-profile");
    int[] f = counts(fresh.out());
    assertEquals(List.of(0, c[1], c[1]), List.of(f[0], f[1], f[2]), fresh.out());
    assertTrue(fresh.out().contains("--fresh-profile: none read, all refreshed"), fresh.out());

    CliRun tune = real("tune", copy, cache, "--budget", "2", "--final-rounds", "1", "--out",
        tmp.resolve("run").toString());
    int[] t = counts(tune.out());
    assertEquals(List.of(c[1], c[1], 0), List.of(t[0], t[1], t[2]), "the summary says it: " + tune.out());
  }
}
