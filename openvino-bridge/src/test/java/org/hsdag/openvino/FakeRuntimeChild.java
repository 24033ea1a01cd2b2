package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.hsdag.ir.IrReader;

/**
 * A runtime child for protocol tests without OpenVINO: serves a {@link ScriptedRuntime} over the
 * real protocol, with one fault on the first timed inference: {@code none}, {@code hang} (never
 * answers) or {@code crash} (the process ends with status 139, as a signal 11 would); or {@code exit}: it
 * ends before it answers its start.
 * Arguments: socket, model.xml, fault.
 */
public final class FakeRuntimeChild {
  private FakeRuntimeChild() {}

  public static void main(String[] args) throws Exception {
    if (args[2].equals("exit")) {
      Runtime.getRuntime().halt(1);
    }
    ScriptedRuntime rt = new ScriptedRuntime(new IrReader().read(Path.of(args[1])), "CPU", "GPU.1");
    switch (args[2]) {
      case "hang" -> rt.blockInference = new CountDownLatch(1);
      case "crash" -> rt.beforeInference = () -> Runtime.getRuntime().halt(128 + 11);
      default -> {
      }
    }
    RuntimeChildMain.serve(Path.of(args[0]), () -> rt);
  }
}
