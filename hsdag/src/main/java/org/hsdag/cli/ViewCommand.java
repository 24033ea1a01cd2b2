package org.hsdag.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.hsdag.view.RunView;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hsdag view runs/<name>}: serves the live view of a run folder, running or finished, until Ctrl-C. */
@Command(name = "view", mixinStandardHelpOptions = true, versionProvider = HsdagCli.Version.class,
    description = {"Serve a live view of a run folder in the browser: it follows a running tune as measurements land "
        + "and shows a finished run's result. Read-only; loopback only unless --view-address says otherwise."},
    footerHeading = "%nExamples:%n",
    footer = {"  hsdag view runs/resnet50-20260101-120000",
        "  hsdag tune model.xml --view      # the same, beside a tune"})
public final class ViewCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A run folder written by 'hsdag tune'.")
  Path runDir;

  @Mixin
  ViewAddressOptions address = new ViewAddressOptions();

  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    ReportCommand.requireRunFolder(runDir);
    CountDownLatch stopped = new CountDownLatch(1);
    RunView view = address.start(runDir, spec.commandLine().getErr());
    Thread hook = new Thread(() -> {
      view.close();
      stopped.countDown();
    }, "hsdag-view-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    spec.commandLine().getErr().println("hsdag: serving until Ctrl-C");
    spec.commandLine().getErr().flush();
    stopped.await();
    return ExitCodes.OK;
  }
}
