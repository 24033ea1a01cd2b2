package org.hsdag.openvino;

import java.util.ArrayList;
import java.util.List;

/** A compiled model (with its infer request) kept in the runtime child ({@link IsolatedRuntime}). */
final class IsolatedCompiled implements OpenVinoRuntime.Compiled {
  private final IsolatedRuntime runtime;
  private final long gen;
  private final long handle;

  IsolatedCompiled(IsolatedRuntime runtime, long gen, long handle) {
    this.runtime = runtime;
    this.gen = gen;
    this.handle = handle;
  }

  private List<Object> call(String op, Object... args) {
    return runtime.call(gen, handle, op, args);
  }

  @Override
  public long reportedSubModels() {
    return IsolatedRuntime.value(call("reportedSubModels"), Long.class);
  }

  @Override
  public String executionDevices() {
    return IsolatedRuntime.value(call("executionDevices"), String.class);
  }

  @Override
  public void fillInputs(long seed) {
    call("fillInputs", seed);
  }

  @Override
  public long inputSize(int input) {
    return IsolatedRuntime.value(call("inputSize", input), Long.class);
  }

  @Override
  public void setInput(int input, float[] data) {
    call("setInput", input, data);
  }

  @Override
  public double[] inferTimed(int warmup, int runs) {
    return IsolatedRuntime.value(call("inferTimed", warmup, runs), double[].class);
  }

  @Override
  public double[] inferThroughput(int requests, int warmup, int runs) {
    return IsolatedRuntime.value(call("inferThroughput", requests, warmup, runs), double[].class);
  }

  @Override
  public float[][] outputs() {
    List<?> all = IsolatedRuntime.value(call("outputs"), List.class);
    return all.stream().map(float[].class::cast).toArray(float[][]::new);
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<ProfilingRecord> profile() {
    List<ProfilingRecord> out = new ArrayList<>();
    for (Object o : call("profile")) {
      List<Object> f = (List<Object>) o;
      out.add(new ProfilingRecord((Integer) f.get(0), (String) f.get(1), (String) f.get(2), (String) f.get(3),
          ProfilingRecord.Status.valueOf((String) f.get(4)), (Long) f.get(5), (Long) f.get(6)));
    }
    return out;
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<ExecutedNode> executedNodes() {
    List<ExecutedNode> out = new ArrayList<>();
    for (Object o : call("executedNodes")) {
      List<Object> f = (List<Object>) o;
      out.add(new ExecutedNode((String) f.get(0), (List<String>) f.get(1)));
    }
    return out;
  }

  @Override
  public void close() {
    runtime.release(gen, handle);
  }
}
