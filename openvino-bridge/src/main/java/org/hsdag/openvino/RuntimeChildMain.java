package org.hsdag.openvino;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * The runtime child's entry point ({@link RuntimeChild} starts it with the tune's class path): connects
 * to the tune's socket, opens the real OpenVINO runtime, says hello ({@code [pid, "ok"]} or {@code
 * [pid, "error", reason]}) and serves requests until the tune closes the socket. A socket rather than
 * stdout because native code may print to stdout; the child's stdout and stderr go to a log file.
 */
public final class RuntimeChildMain {
  /** The name of the thread that answers requests and makes every native call. */
  static final String SERVING_THREAD = "hsdag-runtime";

  private RuntimeChildMain() {}

  /** {@code args[0]}: the tune's Unix socket. */
  public static void main(String[] args) throws IOException {
    serve(Path.of(args[0]), () -> OpenVinoAvailability.probe().openRuntime());
  }

  /** Connects to {@code socket}, opens a runtime by {@code open}, says hello and serves until the tune hangs up. */
  static void serve(Path socket, java.util.function.Supplier<OpenVinoRuntime> open) throws IOException {
    // Named so the thread that runs native calls is found in a crash report and the process table (/proc/<pid>/task).
    Thread.currentThread().setName(SERVING_THREAD);
    try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      ch.connect(UnixDomainSocketAddress.of(socket));
      InputStream in = new BufferedInputStream(Channels.newInputStream(ch), 1 << 16);
      OutputStream out = new BufferedOutputStream(Channels.newOutputStream(ch), 1 << 16);
      long pid = ProcessHandle.current().pid();
      OpenVinoRuntime runtime;
      try {
        runtime = open.get();
      } catch (RuntimeException e) {
        Wire.write(out, List.of(pid, "error", String.valueOf(e.getMessage())));
        return;
      }
      try (runtime) {
        Wire.write(out, List.of(pid, "ok"));
        new RuntimeServer(runtime, RuntimeFaultInjector.fromSystemProperty().enabled()).serve(in, out);
      }
    }
  }
}
