package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.OpGraph;
import org.hsdag.ir.OpNode;

/**
 * A Java test double of {@link OpenVinoRuntime} for testing the backend's own logic (protocol,
 * error handling, placement checks, timeouts). It does not imitate OpenVINO's behaviour beyond
 * recording calls and returning scripted answers; it is not a stand-in for the native library.
 */
final class ScriptedRuntime implements OpenVinoRuntime {
  final List<DeviceInfo> devices;
  final List<TestDevice> registered = new ArrayList<>();
  final OpGraph modelGraph;
  final List<String> calls = new ArrayList<>();
  Map<String, String> lastAffinities;
  String compileError;
  double[] samples = {5, 4, 3, 3, 3, 3, 3, 3, 3, 3};
  /** When set, a throughput compile for N requests in flight times every inference at {@code periodByRequests[N - 1]} ms. */
  double[] periodByRequests;
  long subModels = 2;
  List<ProfilingRecord> profile = List.of();
  // Records of a compile on one device (single-device profiling runs); others get {@code profile}.
  Map<String, List<ProfilingRecord>> profileByDevice = new LinkedHashMap<>();
  Map<String, List<ExecutedNode>> executedByDevice = new LinkedHashMap<>();
  List<ExecutedNode> executed = List.of();
  CountDownLatch blockInference;
  /** When set, runs at the start of every timed inference (a fake runtime child ends itself there). */
  Runnable beforeInference;
  /** When set, a throughput compile waits for it (a compile that overruns the timeout). */
  CountDownLatch blockCompile;
  Map<String, boolean[]> support = new LinkedHashMap<>();
  /** Node names the runtime's reader folded away (constants it computed): absent from the model it read. */
  java.util.Set<String> foldedByReader = java.util.Set.of();
  // Device properties a device reports, keyed "DEVICE KEY" (absent: the device does not list the key).
  Map<String, Long> properties = new LinkedHashMap<>();
  // Set: every inference fails with it. compiledCount numbers the compiled models; inferredOn lists, per
  // inferTimed call, the number of the compiled model it ran on.
  String inferError;
  /** When set, reading a model fails with this reason, as OpenVINO's reader refuses a file. */
  String readError;
  int compiledCount;
  final List<Integer> inferredOn = new ArrayList<>();

  ScriptedRuntime(OpGraph modelGraph, String... devices) {
    this.modelGraph = modelGraph;
    this.devices = Arrays.stream(devices).map(d -> new DeviceInfo(d, "Test " + d)).toList();
  }

  @Override
  public String version() {
    return "2025.1.0-18503-test";
  }

  @Override
  public List<DeviceInfo> devices() {
    List<DeviceInfo> all = new ArrayList<>(devices);
    registered.forEach(t -> all.add(new DeviceInfo(t.name(), t.mark("Test CPU"))));
    return all;
  }

  @Override
  public void setProperty(String device, String key, String value) {
    calls.add("set " + device + " " + key + "=" + value);
  }

  @Override
  public OptionalLong unsignedProperty(String device, String key) {
    Long v = properties.get(device + " " + key);
    return v == null ? OptionalLong.empty() : OptionalLong.of(v);
  }

  @Override
  public void registerTestDevice(TestDevice device) {
    calls.add("register " + device);
    registered.add(device);
  }

  @Override
  public Model readModel(Path xml) {
    calls.add("read " + xml.getFileName());
    if (readError != null) {
      throw new OpenVinoReadException("cannot read " + xml + ": " + readError);
    }
    return new Model() {
      @Override
      public List<String> opNames() {
        return modelGraph.nodes().stream().map(OpNode::name).filter(n -> !foldedByReader.contains(n)).toList();
      }

      @Override
      public List<String> opTypes() {
        return modelGraph.nodes().stream().map(OpNode::type).toList();
      }

      @Override
      public List<ModelOp> ops() {
        throw new UnsupportedOperationException("the scripted runtime reads no model");
      }

      @Override
      public List<String> inputNames() {
        return List.of("input");
      }

      @Override
      public boolean inputIsDynamic(int input) {
        return false;
      }

      @Override
      public void setInputShape(int input, long[] dims) {
        calls.add("reshape " + input + " " + Arrays.toString(dims));
      }

      @Override
      public boolean[] query(String device) {
        boolean[] all = new boolean[modelGraph.nodeCount()];
        Arrays.fill(all, true);
        return support.getOrDefault(device, all);
      }

      @Override
      public void setAffinities(Map<String, String> nameToDevice) {
        for (String name : nameToDevice.keySet()) {
          if (foldedByReader.contains(name)) {
            // what the shim answers for a name the model it read does not have
            throw new OpenVinoException("placement names node '" + name + "', which is not in the model");
          }
        }
        lastAffinities = new LinkedHashMap<>(nameToDevice);
        calls.add("affinities " + nameToDevice.size());
      }

      @Override
      public void clearAffinities() {
        calls.add("clear");
      }

      @Override
      public void save(Path to) {
        // What the double "read": its graph, as hsdag's own writer writes it.
        calls.add("save " + to.getFileName());
        new org.hsdag.ir.IrWriter().write(modelGraph, to);
        try {
          java.nio.file.Files.write(org.hsdag.ir.IrReader.defaultBinPath(to), new byte[0]);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }

      @Override
      public BoundaryShapes boundaryShapes(int[] consumers, int[] ports) {
        calls.add("boundaries " + consumers.length);
        java.util.List<String> shapes = java.util.Collections.nCopies(consumers.length, "[1]");
        return new BoundaryShapes(shapes, java.util.Collections.nCopies(consumers.length, true), 1);
      }

      @Override
      public Compiled compileAutomatic(String device, Path cacheDir, boolean profiling) {
        calls.add("clear");
        calls.add("compile automatic " + device);
        return compiled(device);
      }

      @Override
      public Compiled compile(String device, Path cacheDir, boolean profiling) {
        calls.add("compile " + device);
        return compiled(device);
      }

      @Override
      public Compiled compileForThroughput(String device, Path cacheDir, int requests) {
        calls.add("compile throughput " + device + " " + requests);
        await(blockCompile);
        return compiled(device, requests);
      }

      private Compiled compiled(String device) {
        return compiled(device, 0);
      }

      private Compiled compiled(String device, int compiledFor) {
        if (compileError != null) {
          throw new OpenVinoException("compiling on " + device + ": " + compileError);
        }
        int id = ++compiledCount;
        return new Compiled() {
          @Override
          public long reportedSubModels() {
            return subModels;
          }

          @Override
          public long inputSize(int input) {
            return 4;
          }

          @Override
          public void setInput(int input, float[] data) {
            calls.add("input " + input + " " + data.length);
          }

          @Override
          public List<ExecutedNode> executedNodes() {
            return executedByDevice.getOrDefault(device, executed);
          }

          @Override
          public String executionDevices() {
            return device;
          }

          @Override
          public void fillInputs(long seed) {
            calls.add("fill " + seed);
          }

          @Override
          public double[] inferTimed(int warmup, int runs) {
            calls.add("infer " + warmup + "+" + runs);
            if (beforeInference != null) {
              beforeInference.run();
            }
            inferredOn.add(id);
            if (inferError != null) {
              throw new OpenVinoException(inferError);
            }
            if (blockInference != null) {
              try {
                blockInference.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return Arrays.copyOf(samples, runs);
          }

          @Override
          public double[] inferThroughput(int requests, int warmup, int runs) {
            calls.add("infer " + requests + " in flight " + warmup + "+" + runs);
            await(blockInference);
            if (periodByRequests != null && compiledFor > 0) {
              double[] out = new double[runs];
              Arrays.fill(out, periodByRequests[compiledFor - 1]);
              return out;
            }
            return Arrays.copyOf(samples, runs);
          }

          @Override
          public float[][] outputs() {
            return new float[][] {{0.25f, 0.75f}};
          }

          @Override
          public List<ProfilingRecord> profile() {
            return profileByDevice.getOrDefault(device, profile);
          }

          @Override
          public void close() {
            calls.add("close compiled");
          }
        };
      }

      @Override
      public void close() {
        calls.add("close model");
      }
    };
  }

  @Override
  public void close() {
    calls.add("close runtime");
  }

  private static void await(CountDownLatch latch) {
    if (latch == null) {
      return;
    }
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
