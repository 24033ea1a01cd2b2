package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A model read in the runtime child ({@link IsolatedRuntime}): names and types, which reshaping
 * does not change, are asked once; everything else is a call.
 */
final class IsolatedModel implements OpenVinoRuntime.Model {
  private final IsolatedRuntime runtime;
  private final long gen;
  private final long handle;
  private List<String> opNames;
  private List<String> opTypes;
  private List<String> inputNames;

  IsolatedModel(IsolatedRuntime runtime, long gen, long handle) {
    this.runtime = runtime;
    this.gen = gen;
    this.handle = handle;
  }

  private List<Object> call(String op, Object... args) {
    return runtime.call(gen, handle, op, args);
  }

  @Override
  public synchronized List<String> opNames() {
    if (opNames == null) {
      opNames = IsolatedRuntime.strings(call("opNames"));
    }
    return opNames;
  }

  @Override
  public synchronized List<String> opTypes() {
    if (opTypes == null) {
      opTypes = IsolatedRuntime.strings(call("opTypes"));
    }
    return opTypes;
  }

  @Override
  @SuppressWarnings("unchecked")
  public List<OpenVinoRuntime.ModelOp> ops() {
    List<OpenVinoRuntime.ModelOp> out = new ArrayList<>();
    for (Object o : call("ops")) {
      List<Object> f = (List<Object>) o;
      out.add(new OpenVinoRuntime.ModelOp((String) f.get(0), (String) f.get(1), (Integer) f.get(2),
          (List<String>) f.get(3)));
    }
    return out;
  }

  @Override
  public synchronized List<String> inputNames() {
    if (inputNames == null) {
      inputNames = IsolatedRuntime.strings(call("inputNames"));
    }
    return inputNames;
  }

  @Override
  public boolean inputIsDynamic(int input) {
    return IsolatedRuntime.value(call("inputIsDynamic", input), Boolean.class);
  }

  @Override
  public void setInputShape(int input, long[] dims) {
    call("setInputShape", input, dims.clone());
  }

  @Override
  public boolean[] query(String device) {
    return IsolatedRuntime.value(call("query", device), boolean[].class);
  }

  @Override
  @SuppressWarnings("unchecked")
  public OpenVinoRuntime.BoundaryShapes boundaryShapes(int[] consumers, int[] ports) {
    List<Object> r = call("boundaryShapes", longs(consumers), longs(ports));
    return new OpenVinoRuntime.BoundaryShapes((List<String>) r.get(0), (List<Boolean>) r.get(1), (Integer) r.get(2));
  }

  private static long[] longs(int[] a) {
    long[] out = new long[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = a[i];
    }
    return out;
  }

  @Override
  public void setAffinities(Map<String, String> nameToDevice) {
    call("setAffinities", IsolatedRuntime.map(nameToDevice));
  }

  @Override
  public void clearAffinities() {
    call("clearAffinities");
  }

  @Override
  public void save(Path xml) {
    call("save", pathText(xml));
  }

  @Override
  public OpenVinoRuntime.Model extract(int[] opIndices) {
    return new IsolatedModel(runtime, gen, IsolatedRuntime.value(call("extract", longs(opIndices)), Long.class));
  }

  @Override
  public OpenVinoRuntime.Compiled compile(String device, Path cacheDir, boolean profiling) {
    return runtime.compiled(gen, call("compile", device, pathText(cacheDir), profiling));
  }

  @Override
  public OpenVinoRuntime.Compiled compileAutomatic(String device, Path cacheDir, boolean profiling) {
    return runtime.compiled(gen, call("compileAutomatic", device, pathText(cacheDir), profiling));
  }

  @Override
  public OpenVinoRuntime.Compiled compileForThroughput(String device, Path cacheDir, int requests) {
    return runtime.compiled(gen, call("compileForThroughput", device, pathText(cacheDir), requests));
  }

  private static String pathText(Path p) {
    return p == null ? null : p.toAbsolutePath().toString();
  }

  @Override
  public void close() {
    runtime.release(gen, handle);
  }
}
