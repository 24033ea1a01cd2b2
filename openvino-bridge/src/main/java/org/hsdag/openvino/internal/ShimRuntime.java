package org.hsdag.openvino.internal;

import static org.hsdag.openvino.internal.OvShim.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.PointerPointer;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;
import org.hsdag.ir.IrReader;
import org.hsdag.openvino.ExecutedNode;
import org.hsdag.openvino.OpenVinoException;
import org.hsdag.openvino.OpenVinoReadException;
import org.hsdag.openvino.OpenVinoRuntime;
import org.hsdag.openvino.ProfilingRecord;

/**
 * {@link OpenVinoRuntime} over the C++ shim through {@link OvShim}. The shim's status codes and
 * null handles become {@link OpenVinoException}s here, in one place ({@link #check}). Owns two
 * {@code ov::Core}s, the manual one and (created on first use) the automatic one, as the
 * interface describes; models and compiled models are closed by their owners.
 */
public final class ShimRuntime implements OpenVinoRuntime {
  private CoreHandle core;
  private CoreHandle automaticCore;
  private final List<TestDevice> testDevices = new ArrayList<>();
  private final List<Property> properties = new ArrayList<>();

  /** One {@code core.set_property(device, {key: value})}, kept to replay on the automatic core when it is created. */
  private record Property(String device, String key, String value) {}

  /** Creates the OpenVINO core; loads the JNI library on first use. */
  public ShimRuntime() {
    core = hsdag_ov_core_create();
    if (core == null || core.isNull()) {
      throw new OpenVinoException("cannot create ov::Core: " + lastError());
    }
  }

  /** The runtime build string without creating a core (loads the JNI library). */
  public static String runtimeVersion() {
    return str(hsdag_ov_version());
  }

  /** The OpenVINO major version the shim was compiled against. */
  public static int headersMajorVersion() {
    return hsdag_ov_compiled_major_version();
  }

  @Override
  public String version() {
    return runtimeVersion();
  }

  @Override
  public synchronized List<DeviceInfo> devices() {
    int n = check(hsdag_ov_core_device_count(live()), "listing devices");
    List<DeviceInfo> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = str(hsdag_ov_core_device_name(core, i));
      String fullName = str(hsdag_ov_core_device_full_name(core, i));
      // A test device's full name says what it is, so no report can pass it off as another chip.
      for (TestDevice t : testDevices) {
        fullName = t.name().equals(name) ? t.mark(fullName) : fullName;
      }
      out.add(new DeviceInfo(name, fullName));
    }
    return List.copyOf(out);
  }

  @Override
  public synchronized void registerTestDevice(TestDevice device) {
    register(live(), device);
    if (automaticCore != null) {
      register(automaticCore, device);
    }
    testDevices.add(device);
  }

  @Override
  public synchronized void setProperty(String device, String key, String value) {
    Property p = new Property(device, key, value);
    apply(live(), p);
    if (automaticCore != null) {
      apply(automaticCore, p);
    }
    properties.add(p);
  }

  private static void apply(CoreHandle c, Property p) {
    check(hsdag_ov_core_set_property(c, p.device(), p.key(), p.value()), "setting " + p.key() + "=" + p.value() + " on "
        + p.device());
  }

  private static void register(CoreHandle c, TestDevice device) {
    check(hsdag_ov_core_register_cpu_twin(c, device.name()),
        "registering the CPU plugin (in " + str(hsdag_ov_library_dir()) + ") again as " + device.name());
    device.properties().forEach((key, value) -> apply(c, new Property(device.name(), key, value)));
  }

  @Override
  public synchronized OptionalLong unsignedProperty(String device, String key) {
    long[] value = new long[1];
    int reported = check(hsdag_ov_core_device_uint_property(live(), device, key, value),
        "reading " + key + " of " + device);
    return reported == 1 ? OptionalLong.of(value[0]) : OptionalLong.empty();
  }

  @Override
  public Model readModel(Path xml) {
    ModelHandle m = hsdag_ov_model_read(live(), xml.toAbsolutePath().toString(), "");
    if (m == null || m.isNull()) {
      String error = lastError();
      Path bin = IrReader.defaultBinPath(xml);
      // Only an IR has weights beside it; another framework's file carries its own.
      if (xml.getFileName().toString().endsWith(".xml") && !Files.isReadable(bin)) {
        throw new OpenVinoReadException(bin + ": weights file " + (Files.exists(bin) ? "unreadable" : "not found")
            + " (the openvino backend compiles the model and needs it; OpenVINO: " + error + ")");
      }
      throw new OpenVinoReadException("cannot read " + xml + ": " + error);
    }
    return new ShimModel(m);
  }

  @Override
  public synchronized void close() {
    if (automaticCore != null) {
      hsdag_ov_core_free(automaticCore);
      automaticCore = null;
    }
    if (core != null) {
      hsdag_ov_core_free(core);
      core = null;
    }
  }

  private CoreHandle live() {
    if (core == null) {
      throw new IllegalStateException("the OpenVINO runtime is closed");
    }
    return core;
  }

  /** The core for automatic HETERO/AUTO compiles and meta-device queries, created on first use. */
  private synchronized CoreHandle automatic() {
    live();
    if (automaticCore == null) {
      CoreHandle c = hsdag_ov_core_create();
      if (c == null || c.isNull()) {
        throw new OpenVinoException("cannot create a second ov::Core: " + lastError());
      }
      automaticCore = c;
      testDevices.forEach(d -> register(c, d));
      properties.forEach(p -> apply(c, p));
    }
    return automaticCore;
  }

  static String str(BytePointer p) {
    return p == null || p.isNull() ? "" : p.getString(StandardCharsets.UTF_8);
  }

  static String lastError() {
    String e = str(hsdag_ov_last_error());
    return e.isEmpty() ? "no message from OpenVINO" : e.replaceAll("\\s+", " ").trim();
  }

  /** Returns a non-negative result, or throws with the shim's message for what was being done. */
  static int check(int result, String doing) {
    if (result < 0) {
      throw new OpenVinoException(doing + ": " + lastError());
    }
    return result;
  }

  private final class ShimModel implements Model {
    private ModelHandle model;
    private List<String> names;
    private List<String> types;
    private boolean affinitiesSet;

    ShimModel(ModelHandle model) {
      this.model = model;
      refresh();
    }

    private void refresh() {
      int n = check(hsdag_ov_model_op_count(model), "listing ops");
      List<String> ns = new ArrayList<>(n);
      List<String> ts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        ns.add(str(hsdag_ov_model_op_name(model, i)));
        ts.add(str(hsdag_ov_model_op_type(model, i)));
      }
      names = List.copyOf(ns);
      types = List.copyOf(ts);
    }

    @Override
    public List<String> opNames() {
      return names;
    }

    @Override
    public List<String> opTypes() {
      return types;
    }

    @Override
    public List<ModelOp> ops() {
      List<ModelOp> out = new ArrayList<>(names.size());
      for (int i = 0; i < names.size(); i++) {
        String shapes = str(hsdag_ov_model_op_output_shapes(model, i));
        out.add(
            new ModelOp(names.get(i), types.get(i), check(hsdag_ov_model_op_input_count(model, i), "reading op inputs"),
                shapes.isEmpty() ? List.of() : List.of(shapes.split(";"))));
      }
      return List.copyOf(out);
    }

    @Override
    public List<String> inputNames() {
      int n = check(hsdag_ov_model_input_count(live()), "listing inputs");
      List<String> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(str(hsdag_ov_model_input_name(model, i)));
      }
      return List.copyOf(out);
    }

    @Override
    public boolean inputIsDynamic(int input) {
      return check(hsdag_ov_model_input_is_dynamic(live(), input), "reading input shape") == 1;
    }

    @Override
    public void setInputShape(int input, long[] dims) {
      check(hsdag_ov_model_set_input_shape(live(), input, dims.length, dims.clone()), "reshaping input " + input);
      refresh();
    }

    @Override
    public boolean[] query(String device) {
      int[] supported = new int[names.size()];
      CoreHandle c = OpenVinoRuntime.isMetaDevice(device) ? automatic() : ShimRuntime.this.live();
      check(hsdag_ov_model_query(c, live(), device, supported), "query_model on " + device);
      boolean[] out = new boolean[supported.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = supported[i] != 0;
      }
      return out;
    }

    @Override
    public void setAffinities(Map<String, String> nameToDevice) {
      String[] ns = nameToDevice.keySet().toArray(new String[0]);
      String[] ds = nameToDevice.values().toArray(new String[0]);
      try (PointerPointer<?> np = new PointerPointer<>(ns); PointerPointer<?> dp = new PointerPointer<>(ds)) {
        check(hsdag_ov_model_set_affinities(live(), ns.length, np, dp), "setting affinities");
      }
      affinitiesSet = true;
    }

    @Override
    public void clearAffinities() {
      check(hsdag_ov_model_clear_affinities(live()), "clearing affinities");
      affinitiesSet = false;
    }

    @Override
    public void save(Path xml) {
      check(hsdag_ov_model_save(live(), xml.toAbsolutePath().toString(),
          IrReader.defaultBinPath(xml).toAbsolutePath().toString()), "writing " + xml);
    }

    @Override
    public Model extract(int[] opIndices) {
      ModelHandle part = hsdag_ov_model_extract(live(), opIndices.length, opIndices.clone());
      if (part == null || part.isNull()) {
        throw new OpenVinoException("cannot extract a sub-model of " + opIndices.length + " ops: " + lastError());
      }
      return new ShimModel(part);
    }

    @Override
    public BoundaryShapes boundaryShapes(int[] consumers, int[] ports) {
      int[] isStatic = new int[consumers.length];
      int subModels = check(hsdag_ov_model_boundaries(live(), consumers.length, consumers.clone(), ports.clone(),
          isStatic), "inferring shapes of the split's sub-models");
      List<String> shapes = new ArrayList<>(consumers.length);
      List<Boolean> statics = new ArrayList<>(consumers.length);
      for (int k = 0; k < consumers.length; k++) {
        shapes.add(str(hsdag_ov_model_boundary_shape(model, k)));
        statics.add(isStatic[k] == 1);
      }
      return new BoundaryShapes(shapes, statics, subModels);
    }

    @Override
    public Compiled compile(String device, Path cacheDir, boolean profiling) {
      if (OpenVinoRuntime.isMetaDevice(device) && !affinitiesSet) {
        throw new IllegalStateException("compiling on " + device + " without affinities is an automatic compile: "
            + "use compileAutomatic, which keeps it off the manual core");
      }
      return compileOn(ShimRuntime.this.live(), device, cacheDir, profiling);
    }

    @Override
    public Compiled compileAutomatic(String device, Path cacheDir, boolean profiling) {
      clearAffinities();
      return compileOn(automatic(), device, cacheDir, profiling);
    }

    @Override
    public Compiled compileForThroughput(String device, Path cacheDir, int requests) {
      if (OpenVinoRuntime.isMetaDevice(device) && !affinitiesSet) {
        throw new IllegalStateException("compiling on " + device + " without affinities is an automatic compile");
      }
      CompiledHandle c = hsdag_ov_compile_throughput(ShimRuntime.this.live(), live(), device,
          cacheDir == null ? "" : cacheDir.toAbsolutePath().toString(), requests);
      return compiledOrThrow(c, device);
    }

    /** hsdag_ov_shim.h's HSDAG_OV_INFER_REQUEST_STAGE. */
    private static final String INFER_REQUEST_STAGE = "creating the infer request: ";

    private Compiled compileOn(CoreHandle core, String device, Path cacheDir, boolean profiling) {
      CompiledHandle c = hsdag_ov_compile(core, live(), device,
          cacheDir == null ? "" : cacheDir.toAbsolutePath().toString(), profiling ? 1 : 0);
      return compiledOrThrow(c, device);
    }

    private Compiled compiledOrThrow(CompiledHandle c, String device) {
      if (c == null || c.isNull()) {
        String error = lastError();
        // The shim prefixes an infer-request failure (HSDAG_OV_INFER_REQUEST_STAGE): compiling itself succeeded.
        throw error.startsWith(INFER_REQUEST_STAGE)
            ? new OpenVinoException("infer request on " + device + " (compiled, then refused): "
                + error.substring(INFER_REQUEST_STAGE.length()))
            : new OpenVinoException("compiling on " + device + ": " + error);
      }
      return new ShimCompiled(c);
    }

    private ModelHandle live() {
      if (model == null) {
        throw new IllegalStateException("the model is closed");
      }
      return model;
    }

    @Override
    public void close() {
      if (model != null) {
        hsdag_ov_model_free(model);
        model = null;
      }
    }
  }

  private static final class ShimCompiled implements Compiled {
    private CompiledHandle compiled;

    ShimCompiled(CompiledHandle compiled) {
      this.compiled = compiled;
    }

    @Override
    public long reportedSubModels() {
      long[] count = new long[1];
      check(hsdag_ov_compiled_submodels(live(), count), "reading HETERO_NUMBER_OF_SUBMODELS");
      return count[0];
    }

    @Override
    public String executionDevices() {
      return str(hsdag_ov_compiled_execution_devices(live()));
    }

    @Override
    public void fillInputs(long seed) {
      check(hsdag_ov_fill_inputs(live(), seed), "filling inputs");
    }

    @Override
    public long inputSize(int input) {
      long n = hsdag_ov_input_size(live(), input);
      if (n < 0) {
        throw new OpenVinoException("input " + input + ": " + lastError());
      }
      return n;
    }

    @Override
    public void setInput(int input, float[] data) {
      check(hsdag_ov_input_write(live(), input, data, data.length), "setting input " + input);
    }

    @Override
    public double[] inferTimed(int warmup, int runs) {
      double[] samples = new double[runs];
      check(hsdag_ov_infer_timed(live(), warmup, runs, samples), "inference");
      return samples;
    }

    @Override
    public double[] inferThroughput(int requests, int warmup, int runs) {
      double[] samples = new double[runs];
      check(hsdag_ov_infer_throughput(live(), requests, warmup, runs, samples),
          "inference with " + requests + " requests in flight");
      return samples;
    }

    @Override
    public float[][] outputs() {
      int n = check(hsdag_ov_output_count(live()), "listing outputs");
      float[][] out = new float[n][];
      for (int i = 0; i < n; i++) {
        long size = hsdag_ov_output_size(compiled, i);
        if (size < 0) {
          throw new OpenVinoException("reading output " + i + ": " + lastError());
        }
        out[i] = new float[Math.toIntExact(size)];
        check(hsdag_ov_output_read(compiled, i, out[i], size), "reading output " + i);
      }
      return out;
    }

    @Override
    public List<ProfilingRecord> profile() {
      int n = check(hsdag_ov_profile_collect(live()), "reading profiling info");
      List<ProfilingRecord> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(ProfilingRecord.fromRaw(
            str(hsdag_ov_profile_node_name(compiled, i)),
            str(hsdag_ov_profile_node_type(compiled, i)),
            str(hsdag_ov_profile_exec_type(compiled, i)),
            ProfilingRecord.Status.ofCode(hsdag_ov_profile_status(compiled, i)),
            hsdag_ov_profile_real_us(compiled, i),
            hsdag_ov_profile_cpu_us(compiled, i)));
      }
      return List.copyOf(out);
    }

    @Override
    public List<ExecutedNode> executedNodes() {
      int n = check(hsdag_ov_runtime_collect(live()), "reading the runtime model");
      List<ExecutedNode> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(ExecutedNode.of(str(hsdag_ov_runtime_node_name(compiled, i)),
            str(hsdag_ov_runtime_original_names(compiled, i))));
      }
      return List.copyOf(out);
    }

    private CompiledHandle live() {
      if (compiled == null) {
        throw new IllegalStateException("the compiled model is closed");
      }
      return compiled;
    }

    @Override
    public void close() {
      if (compiled != null) {
        hsdag_ov_compiled_free(compiled);
        compiled = null;
      }
    }
  }
}
