package org.hsdag.cluster;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.hsdag.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag cluster init DIR}: the certificates of a fleet. */
@Command(name = "cluster", mixinStandardHelpOptions = true, subcommands = ClusterCommand.Init.class,
    description = "Set up an hsdag cluster (see 'hsdag worker' and 'tune --cluster').")
public final class ClusterCommand implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "missing subcommand (init)");
  }

  /** {@code hsdag cluster init DIR --members m1,m2 }. */
  @Command(name = "init", mixinStandardHelpOptions = true,
      description = {"Write a CA (DIR/ca: keep it on this machine) and one folder per member with its key store, "
          + "trust store (the CA only) and password: copy DIR/NAME to the machine NAME and pass it as --tls / --cluster-tls.",
          "Run again with new --members to add members signed by the same CA."})
  static final class Init implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "Folder for the fleet's certificates.")
    Path dir;

    @Option(names = "--members", split = ",", paramLabel = "NAME", defaultValue = "coordinator,worker1,worker2,worker3",
        description = "Member names, one folder each (default: ${DEFAULT-VALUE}).")
    List<String> members;

    @Option(names = "--coordinators", split = ",", paramLabel = "NAME", defaultValue = "coordinator",
        description = "Members whose certificate says coordinator (tune, bench); every other member's says worker "
            + "(default: ${DEFAULT-VALUE}).")
    List<String> coordinators;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      new ClusterInit(dir).write(members, coordinators);
      PrintWriter out = spec.commandLine().getOut();
      out.println("wrote a CA in " + dir.resolve(ClusterInit.CA_DIR) + " (keep it here) and members:");
      List<String> lines = new ArrayList<>();
      for (String m : members) {
        lines.add("  " + dir.resolve(m) + "   copy to machine " + m + (coordinators.contains(m)
            ? "; a coordinator: use it with --cluster-tls (tune, bench)" : "; a worker: use it with --tls (worker)"));
      }
      lines.forEach(out::println);
      out.println("first worker:  hsdag worker --tls " + dir.resolve(members.get(members.size() > 1 ? 1 : 0))
          + " --bind HOST1:25520 --join HOST1:25520 [--label hw=NAME]");
      out.println(
          "then:          hsdag tune model.xml --cluster HOST1:25520 --cluster-tls " + dir.resolve(members.get(0))
              + " --cluster-bind THIS_HOST");
      out.flush();
      return ExitCodes.OK;
    }
  }
}
