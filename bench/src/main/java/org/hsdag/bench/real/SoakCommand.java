package org.hsdag.bench.real;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.hsdag.bench.report.LoadAverage;
import org.hsdag.cli.HsdagCli;
import org.hsdag.cli.UserInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code hsdag bench soak}: many real tunes of one model, one seed after another, under load this command makes
 * itself (busy threads), so every cost model and measurement is noisy. Counts the tunes that end in an internal
 * error and resumes every folder that ends in any error; exit 0 only when none ended in an internal error and
 * every such folder resumed to exit 0.
 *
 * <pre>
 * ./hsdag.sh bench soak MODEL.xml --tunes 30 --load 2 --budget 12 [--test-device CPU2:precision=f32]
 * </pre>
 */
@Command(name = "soak", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Real tunes of one model under generated load: internal errors, and whether every folder that "
        + "ended in an error resumes.")
public final class SoakCommand implements Callable<Integer> {
  @Parameters(paramLabel = "MODEL", description = "IR .xml file or catalog model name")
  String model;

  @Option(names = "--tunes", defaultValue = "30", description = "Tunes, seeds --seed, --seed+1, ... Default: "
      + "${DEFAULT-VALUE}.")
  int tunes;

  @Option(names = "--load", defaultValue = "2", description = "Busy threads this command runs meanwhile. Default: "
      + "${DEFAULT-VALUE}.")
  int load;

  @Option(names = "--budget", defaultValue = "12", description = "Each tune's --budget. Default: ${DEFAULT-VALUE}.")
  int budget;

  @Option(names = "--seed", defaultValue = "1", description = "The first tune's seed. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--backend", defaultValue = "openvino", description = "Default: ${DEFAULT-VALUE}.")
  String backend;

  @Option(names = "--devices", defaultValue = "CPU,CPU2", description = "Default: ${DEFAULT-VALUE}.")
  String devices;

  @Option(names = "--test-device", defaultValue = "CPU2:precision=f32",
      description = "The second device: the CPU plugin registered again. Default: ${DEFAULT-VALUE}.")
  String testDevice;

  @Option(names = "--fresh-profile", description = "Build every tune's cost model anew (the noisiest; slow).")
  boolean freshProfile;

  @Option(names = "--tune-option", paramLabel = "OPTION", description = "A further option for every tune "
      + "(repeatable), e.g. --tune-option=--final-rounds=1.")
  List<String> tuneOptions = new ArrayList<>();

  @Option(names = "--out", paramLabel = "DIR", required = true, description = "A new folder for the tunes' folders.")
  Path out;

  @Spec
  CommandSpec spec;

  /** One tune's outcome: its exit code, whether it said "internal error", its resume's exit code (-1: none). */
  record Outcome(long seed, int exit, boolean internalError, int resumeExit) {}

  @Override
  public Integer call() throws Exception {
    if (tunes < 1 || load < 0 || budget < 1) {
      throw new UserInputException("--tunes and --budget must be at least 1, --load at least 0");
    }
    if (Files.exists(out)) {
      throw new UserInputException("--out " + out + " exists; give a new folder");
    }
    Files.createDirectories(out);
    PrintWriter o = spec.commandLine().getOut();
    String loadStart = LoadAverage.format(LoadAverage.now());
    AtomicBoolean running = new AtomicBoolean(true);
    for (int i = 0; i < load; i++) {
      Thread t = new Thread(() -> {
        double x = 0;
        while (running.get()) {
          x += Math.sqrt(x + 1);
        }
      }, "soak-load-" + i);
      t.setDaemon(true);
      t.start();
    }
    List<Outcome> outcomes = new ArrayList<>();
    try {
      for (int i = 0; i < tunes; i++) {
        outcomes.add(one(seed + i, o));
      }
    } finally {
      running.set(false);
    }
    long internal = outcomes.stream().filter(Outcome::internalError).count();
    long errors = outcomes.stream().filter(x -> x.exit() != 0).count();
    long resumed = outcomes.stream().filter(x -> x.exit() != 0 && x.resumeExit() == 0).count();
    o.printf(Locale.ROOT, "soak: %d real tunes of %s (%s, %s, --budget %d) with %d busy threads: %d internal errors, "
        + "%d ended in an error, %d of them resumed to exit 0; load %s at the start, %s at the end%n", tunes, model,
        backend, devices, budget, load, internal, errors, resumed, loadStart, LoadAverage.format(LoadAverage.now()));
    o.flush();
    return internal == 0 && resumed == errors ? 0 : 1;
  }

  private Outcome one(long s, PrintWriter o) {
    Path dir = out.resolve("tune-" + s);
    List<String> args = new ArrayList<>(List.of("tune", model, "--backend", backend, "--devices", devices,
        "--test-device", testDevice, "--budget", Integer.toString(budget), "--seed", Long.toString(s), "--out",
        dir.toString(), "--no-report", "--quiet"));
    if (freshProfile) {
      args.add("--fresh-profile");
    }
    args.addAll(tuneOptions);
    String[] run = run(args);
    int exit = Integer.parseInt(run[0]);
    boolean internal = run[1].contains("internal error");
    int resume = -1;
    if (exit != 0 && Files.exists(dir.resolve("manifest.json"))) {
      String[] again = run(List.of("tune", "--resume", "--out", dir.toString(), "--no-report", "--quiet"));
      resume = Integer.parseInt(again[0]);
      internal |= again[1].contains("internal error");
    }
    o.printf(Locale.ROOT, "seed %d: exit %d%s%s%n", s, exit, resume < 0 ? "" : ", resumed: exit " + resume,
        internal ? " (INTERNAL ERROR: " + dir + ")" : exit != 0 ? " (" + firstLine(run[1]) + ")" : "");
    o.flush();
    return new Outcome(s, exit, internal, resume);
  }

  /** The CLI in this process: its exit code and what it wrote on stderr. */
  private static String[] run(List<String> args) {
    CommandLine cl = HsdagCli.newCommandLine();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(new StringWriter(), true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args.toArray(String[]::new));
    return new String[] {Integer.toString(code), err.toString()};
  }

  private static String firstLine(String text) {
    String t = text.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
