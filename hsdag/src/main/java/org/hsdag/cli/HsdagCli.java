package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.util.ServiceLoader;
import org.hsdag.backend.BackendUnavailableException;
import org.hsdag.io.IoErrors;
import org.hsdag.ir.IrException;
import org.hsdag.placement.InvalidPlacementException;
import org.hsdag.search.SearchConfigException;
import org.hsdag.tune.DamagedRunFileException;
import org.hsdag.tune.RunFolderBusyException;
import org.hsdag.tune.RunRefusedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code hsdag} command and its subcommands. */
@Command(
    name = "hsdag",
    mixinStandardHelpOptions = true,
    versionProvider = HsdagCli.Version.class,
    description = "Finds a fast per-operation device placement for an OpenVINO IR model (HSDAG).",
    subcommands = {
        CommandLine.HelpCommand.class,
        InspectCommand.class,
        DevicesCommand.class,
        TuneCommand.class,
        PlanCommand.class,
        ApplyCommand.class,
        ReportCommand.class,
        ViewCommand.class,
        ExportCommand.class,
        ModelsCommand.class,
        CalibrateCommand.class,
        CheckRuntimeCommand.class,
    // further subcommands are added by their modules' issues; keep one per line
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success", "1:failure while running", "2:bad usage or bad input",
        "130:interrupted (Ctrl-C); a tune run continues with --resume"})
public final class HsdagCli implements Runnable {
  /** Where slf4j-simple reads hsdag's own level when a logger is created (after parsing). */
  static final String HSDAG_LOG_LEVEL = "org.slf4j.simpleLogger.log.org.hsdag";

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT,
      description = "Also log what hsdag is doing (model coarsening, policy size, failed measurements) on stderr.")
  void verbose(boolean on) {
    if (on) {
      // Loggers are created when their classes load, which is after the command line is parsed.
      System.setProperty(HSDAG_LOG_LEVEL, "info");
    }
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "missing command");
  }

  /** Builds the command line exactly as {@link Main} runs it, so tests exercise the same wiring. */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new HsdagCli());
    for (CliExtension ext : ServiceLoader.load(CliExtension.class)) {
      cl.addSubcommand(ext.newCommand());
    }
    // `hsdag generate-completion` prints a bash/zsh completion script (`./hsdag.sh install` uses it).
    CommandLine completion = new CommandLine(new picocli.AutoComplete.GenerateCompletion());
    completion.getCommandSpec().usageMessage().hidden(true);
    cl.addSubcommand("generate-completion", completion);
    cl.setExecutionExceptionHandler(HsdagCli::handle);
    cl.setParameterExceptionHandler((ex, args) -> {
      PrintWriter err = ex.getCommandLine().getErr();
      String qualified = ex.getCommandLine().getCommandSpec().qualifiedName();
      String cmd = CommandName.current()
          + qualified.substring(qualified.indexOf(' ') < 0 ? qualified.length() : qualified.indexOf(' '));
      // One hint per line: messages that already name a command to try keep theirs.
      String msg = ex.getMessage();
      err.println("hsdag: " + msg + (msg.contains("(try '") ? "" : " (try '" + cmd + " --help')"));
      return ExitCodes.BAD_INPUT;
    });
    return cl;
  }

  private static int handle(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
    PrintWriter err = cl.getErr();
    Throwable t = ex;
    if (t instanceof java.io.UncheckedIOException u && u.getCause() != null) {
      t = u.getCause();
    }
    if (t instanceof UserInputException || t instanceof IrException || t instanceof InvalidPlacementException
        || t instanceof SearchConfigException || t instanceof DamagedRunFileException
        || t instanceof RunRefusedException || t instanceof RunFolderBusyException
        || t instanceof org.hsdag.memory.NoPlacementFitsException) {
      err.println("hsdag: " + t.getMessage());
      return ExitCodes.BAD_INPUT;
    }
    if (t instanceof org.hsdag.openvino.OpenVinoReadException) {
      err.println("hsdag: " + openVinoReadLine((org.hsdag.openvino.OpenVinoReadException) t));
      return ExitCodes.BAD_INPUT;
    }
    if (t instanceof BackendUnavailableException) {
      // The environment lacks the backend: a failure to run, not bad input.
      err.println("hsdag: " + t.getMessage());
      return ExitCodes.FAILURE;
    }
    if (t instanceof NoSuchFileException nf) {
      err.println("hsdag: file not found: " + nf.getFile());
      return ExitCodes.BAD_INPUT;
    }
    if (t instanceof IOException io) {
      // "path: reason" whatever the exception type; the sources name the file (IoErrors.naming).
      String msg = IoErrors.describe(io);
      if (msg.contains("No space left")) {
        msg = "disk full (" + msg + ")";
      }
      err.println("hsdag: I/O error: " + msg);
      return ExitCodes.FAILURE;
    }
    err.println("hsdag: internal error: " + t);
    if (Boolean.getBoolean("hsdag.debug")) {
      t.printStackTrace(err);
    } else {
      err.println("hsdag: rerun with -Dhsdag.debug=true (HSDAG_DEBUG=1 with the launcher) for the stack trace");
    }
    return ExitCodes.FAILURE;
  }

  /** How a model OpenVINO cannot read is reported, with its likely cause ({@code inspect --backend} says the same). */
  static String openVinoReadLine(org.hsdag.openvino.OpenVinoReadException e) {
    return "OpenVINO " + e.getMessage() + " " + ReadFailureHint.of(e.getMessage());
  }

  /** Version from the jar manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = HsdagCli.class.getPackage().getImplementationVersion();
      return new String[] {"hsdag " + (v == null ? "0.1.0-SNAPSHOT" : v), "Java " + System.getProperty("java.version")};
    }
  }
}
