package org.hsdag.openvino;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.hsdag.backend.TestDevice;

/**
 * The child's side of the runtime isolation: answers {@link Wire} requests by calling an {@link
 * OpenVinoRuntime} (the real one in {@link RuntimeChildMain}, any double in tests). Models and
 * compiled models live here under numeric handles (0 is the runtime itself), so compiled models
 * stay in the child between measurements. Errors travel back as {@code [id, "error", kind,
 * message]} with the kind of exception, so the tune raises the same one.
 */
final class RuntimeServer {
  /** The request that makes the child crash itself ({@link RuntimeFaultInjector}; refused unless it is on). */
  static final String TEST_CRASH = "testFaultInjectorCrash";
  /** The request after whose answer the child hangs, reading nothing more ({@link RuntimeFaultInjector}; likewise). */
  static final String TEST_HANG = "testFaultInjectorHang";

  private final OpenVinoRuntime runtime;
  private final boolean faultInjection;
  private final Map<Long, Object> handles = new HashMap<>();
  private long next = 1;

  RuntimeServer(OpenVinoRuntime runtime) {
    this(runtime, false);
  }

  /** A server that also obeys {@link #TEST_CRASH} and {@link #TEST_HANG} when {@code faultInjection} (a test's). */
  RuntimeServer(OpenVinoRuntime runtime, boolean faultInjection) {
    this.runtime = runtime;
    this.faultInjection = faultInjection;
  }

  /** Answers requests until the stream ends or an {@code exit} request. */
  void serve(InputStream in, OutputStream out) throws IOException {
    while (true) {
      List<Object> request;
      try {
        request = Wire.read(in);
      } catch (EOFException e) {
        return;
      }
      Object id = request.get(0);
      String op = (String) request.get(1);
      List<Object> answer = new ArrayList<>();
      answer.add(id);
      try {
        List<Object> values = call(op, (Long) request.get(2), request.subList(3, request.size()));
        answer.add("ok");
        answer.addAll(values);
      } catch (OpenVinoReadException e) {
        answer.addAll(List.of("error", "read", String.valueOf(e.getMessage())));
      } catch (OpenVinoException e) {
        answer.addAll(List.of("error", "openvino", String.valueOf(e.getMessage())));
      } catch (IllegalStateException e) {
        answer.addAll(List.of("error", "state", String.valueOf(e.getMessage())));
      } catch (RuntimeException e) {
        answer.addAll(List.of("error", "other", e.toString()));
      }
      Wire.write(out, answer);
      if (op.equals("exit")) {
        return;
      }
      if (op.equals(TEST_HANG) && "ok".equals(answer.get(1))) {
        RuntimeFaultInjector.hangThisThread(); // answered: the tune's next request is the one never answered
      }
    }
  }

  private List<Object> call(String op, long handle, List<Object> a) {
    if (handle == 0) {
      return runtimeCall(op, a);
    }
    Object target = handles.get(handle);
    if (target instanceof OpenVinoRuntime.Model m) {
      return modelCall(m, handle, op, a);
    }
    if (target instanceof OpenVinoRuntime.Compiled c) {
      return compiledCall(c, handle, op, a);
    }
    throw new IllegalStateException("no such handle " + handle + " (closed?)");
  }

  private List<Object> runtimeCall(String op, List<Object> a) {
    return switch (op) {
      case "pid" -> List.of(ProcessHandle.current().pid());
      case "exit" -> List.of();
      case "version" -> List.of(runtime.version());
      case "devices" -> {
        List<Object> out = new ArrayList<>();
        runtime.devices().forEach(d -> out.add(List.of(d.name(), d.fullName())));
        yield out;
      }
      case "registerTestDevice" -> {
        runtime.registerTestDevice(new TestDevice((String) a.get(0), (Integer) a.get(1), (String) a.get(2)));
        yield List.of();
      }
      case "setProperty" -> {
        runtime.setProperty((String) a.get(0), (String) a.get(1), (String) a.get(2));
        yield List.of();
      }
      case "unsignedProperty" -> {
        OptionalLong v = runtime.unsignedProperty((String) a.get(0), (String) a.get(1));
        yield v.isPresent() ? List.of(v.getAsLong()) : List.of();
      }
      case "readModel" -> List.of(keep(runtime.readModel(Path.of((String) a.get(0)))));
      case TEST_CRASH, TEST_HANG -> {
        if (!faultInjection) {
          throw new IllegalArgumentException("unknown call '" + op + "' (the test fault injector is off)");
        }
        if (op.equals(TEST_CRASH)) {
          RuntimeFaultInjector.crashThisThread();
        }
        yield List.of();
      }
      default -> throw new IllegalArgumentException("unknown call '" + op + "'");
    };
  }

  @SuppressWarnings("unchecked")
  private List<Object> modelCall(OpenVinoRuntime.Model m, long handle, String op, List<Object> a) {
    return switch (op) {
      case "opNames" -> List.of(m.opNames());
      case "opTypes" -> List.of(m.opTypes());
      case "inputNames" -> List.of(m.inputNames());
      case "ops" -> {
        List<Object> out = new ArrayList<>();
        m.ops().forEach(o -> out.add(List.of(o.name(), o.type(), o.inputs(), o.outputShapes())));
        yield out;
      }
      case "inputIsDynamic" -> List.of(m.inputIsDynamic((Integer) a.get(0)));
      case "setInputShape" -> {
        m.setInputShape((Integer) a.get(0), (long[]) a.get(1));
        yield List.of();
      }
      case "query" -> List.of(m.query((String) a.get(0)));
      case "boundaryShapes" -> {
        OpenVinoRuntime.BoundaryShapes b = m.boundaryShapes(ints((long[]) a.get(0)), ints((long[]) a.get(1)));
        yield List.of(b.shapes(), b.staticShapes(), b.subModels());
      }
      case "setAffinities" -> {
        m.setAffinities((Map<String, String>) a.get(0));
        yield List.of();
      }
      case "clearAffinities" -> {
        m.clearAffinities();
        yield List.of();
      }
      case "save" -> {
        m.save(Path.of((String) a.get(0)));
        yield List.of();
      }
      case "extract" -> List.of(keep(m.extract(ints((long[]) a.get(0)))));
      case "compile" -> List.of(keep(m.compile((String) a.get(0), path(a.get(1)), (Boolean) a.get(2))));
      case "compileAutomatic" ->
        List.of(keep(m.compileAutomatic((String) a.get(0), path(a.get(1)), (Boolean) a.get(2))));
      case "compileForThroughput" ->
        List.of(keep(m.compileForThroughput((String) a.get(0), path(a.get(1)), (Integer) a.get(2))));
      case "close" -> {
        handles.remove(handle);
        m.close();
        yield List.of();
      }
      default -> throw new IllegalArgumentException("unknown model call '" + op + "'");
    };
  }

  private List<Object> compiledCall(OpenVinoRuntime.Compiled c, long handle, String op, List<Object> a) {
    return switch (op) {
      case "reportedSubModels" -> List.of(c.reportedSubModels());
      case "executionDevices" -> List.of(c.executionDevices());
      case "fillInputs" -> {
        c.fillInputs((Long) a.get(0));
        yield List.of();
      }
      case "inputSize" -> List.of(c.inputSize((Integer) a.get(0)));
      case "setInput" -> {
        c.setInput((Integer) a.get(0), (float[]) a.get(1));
        yield List.of();
      }
      case "inferTimed" -> List.of(c.inferTimed((Integer) a.get(0), (Integer) a.get(1)));
      case "inferThroughput" -> List.of(c.inferThroughput((Integer) a.get(0), (Integer) a.get(1), (Integer) a.get(2)));
      case "outputs" -> List.of(List.of((Object[]) c.outputs()));
      case "profile" -> {
        List<Object> out = new ArrayList<>();
        c.profile().forEach(r -> out.add(List.of(r.subgraph(), r.nodeName(), r.nodeType(), r.execType(),
            r.status().name(), r.realTimeMicros(), r.cpuTimeMicros())));
        yield out;
      }
      case "executedNodes" -> {
        List<Object> out = new ArrayList<>();
        c.executedNodes().forEach(n -> out.add(List.of(n.name(), n.originalNames())));
        yield out;
      }
      case "close" -> {
        handles.remove(handle);
        c.close();
        yield List.of();
      }
      default -> throw new IllegalArgumentException("unknown compiled-model call '" + op + "'");
    };
  }

  private long keep(Object handle) {
    long h = next++;
    handles.put(h, handle);
    return h;
  }

  private static Path path(Object p) {
    return p == null ? null : Path.of((String) p);
  }

  private static int[] ints(long[] a) {
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = Math.toIntExact(a[i]);
    }
    return out;
  }
}
