package org.hsdag.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.UnknownHostException;
import java.nio.file.Path;
import org.hsdag.view.RunView;
import picocli.CommandLine.Option;

/**
 * The {@code --view-address} / {@code --view-port} picocli mixin of the live view ({@code view}, {@code tune --view}):
 * loopback on a free port unless told otherwise; an address beyond loopback is used only when named, with a warning.
 */
public final class ViewAddressOptions {
  @Option(names = "--view-address", paramLabel = "ADDRESS",
      description = "Address the live view listens on. Default: the loopback address (this machine only). Another "
          + "address (e.g. 0.0.0.0) lets other machines read the run: there is no password.")
  String address;

  @Option(names = "--view-port", paramLabel = "PORT", defaultValue = "0",
      description = "Port of the live view. Default: any free port (printed).")
  int port;

  /** Whether either option was given. */
  boolean given() {
    return address != null || port != 0;
  }

  /**
   * Starts the view of {@code dir} and says where it is on {@code err}, with a warning when it reaches beyond this
   * machine.
   */
  RunView start(Path dir, PrintWriter err) throws IOException {
    RunView.Binding binding;
    try {
      binding = new RunView.Binding(address, port);
      if (binding.beyondLoopback()) {
        err.println("hsdag: warning: the live view listens on " + address + ", beyond this machine, without a "
            + "password: anyone who reaches it can read the run");
      }
    } catch (IllegalArgumentException e) {
      throw new UserInputException("--view-port: " + e.getMessage());
    } catch (UnknownHostException e) {
      throw new UserInputException("--view-address " + address + ": no such address");
    }
    RunView view;
    try {
      view = RunView.start(dir, binding, address != null);
    } catch (java.net.BindException e) {
      throw new UserInputException("the live view cannot listen on " + (address == null ? "loopback" : address)
          + (port == 0 ? "" : " port " + port) + " (" + e.getMessage() + ")");
    }
    err.println("hsdag: live view of " + dir + " at " + view.uri());
    err.flush();
    return view;
  }
}
