package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.hsdag.backend.DeviceInfo;
import org.hsdag.backend.TestDevice;

/**
 * The few native OpenVINO operations hsdag uses, one method per shim function family. The only
 * implementation over real OpenVINO is {@code org.hsdag.openvino.internal.ShimRuntime} (JavaCPP),
 * obtained from {@link OpenVinoAvailability#openRuntime()}; keeping this interface free of JavaCPP
 * types lets everything above it load and be tested on machines without OpenVINO.
 *
 * <p>Every method reports OpenVINO failures as {@link OpenVinoException} with OpenVINO's message.
 * Handles are not thread-safe: use each from one thread at a time.
 *
 * <p>An implementation keeps two {@code ov::Core}s: one for placements with manual affinities and
 * one for everything that lets a meta device choose devices (automatic HETERO, AUTO, MULTI, and
 * {@code query_model} on them). HETERO's {@code HETERO_NUMBER_OF_SUBMODELS} subtracts a counter of
 * the HETERO plugin object that only automatic compiles and queries increase
 * ({@code src/plugins/hetero/src/plugin.cpp}, {@code query_model_update}); the manual compiles go
 * to a core that never runs those, and {@link SubModelCount} checks the value anyway.
 */
public interface OpenVinoRuntime extends AutoCloseable {
  /**
   * True for the meta devices that choose devices themselves ({@code HETERO}, {@code AUTO},
   * {@code MULTI}, {@code BATCH}, with or without a {@code :} list).
   */
  static boolean isMetaDevice(String device) {
    String d = device.strip();
    for (String meta : new String[] {"HETERO", "AUTO", "MULTI", "BATCH"}) {
      if (d.equals(meta) || d.startsWith(meta + ":")) {
        return true;
      }
    }
    return false;
  }

  /** The runtime build string, e.g. {@code 2025.1.0-18503-…}. */
  String version();

  /** Available devices with their full names, in OpenVINO's order; a test device's full name is {@linkplain TestDevice#mark marked}. */
  List<DeviceInfo> devices();

  /**
   * Registers {@code device} (the CPU plugin under another name, with its own {@linkplain TestDevice#properties settings}) on
   * every core of this runtime, so it appears in {@link #devices()} and HETERO can use it.
   */
  void registerTestDevice(TestDevice device);

  /**
   * Sets a property of {@code device} on every core, in OpenVINO's string form (e.g. {@code
   * INFERENCE_PRECISION_HINT} = {@code f32}); it applies to models compiled afterwards.
   */
  void setProperty(String device, String key, String value);

  /**
   * An unsigned integer property of {@code device} (e.g. {@code GPU_DEVICE_TOTAL_MEM_SIZE}), read only
   * when the device lists {@code key} among its {@code ov::supported_properties}; empty when it does not.
   */
  OptionalLong unsignedProperty(String device, String key);

  /** Reads {@code model.xml} and its {@code .bin} (same name). */
  Model readModel(Path xml);

  /** Whether the native calls run in a child process ({@link IsolatedRuntime}) rather than in this JVM. */
  default boolean isolated() {
    return false;
  }

  /**
   * Calls from now on must be answered within {@code limit} (null: no limit); past it the runtime is ended and the
   * call throws {@link RuntimeLostException}. Only an {@linkplain #isolated isolated} runtime can keep it.
   */
  default void deadline(java.time.Duration limit) {
    // a native call in this JVM cannot be stopped
  }

  /**
   * Outside a {@link #deadline}, each call must be answered within what {@code limit} gives then (null: no limit), so
   * a hang while profiling or judging boundaries is ended too; {@code lost} is told the reason and the call's name
   * whenever the runtime is lost. Only an {@linkplain #isolated isolated} runtime can keep it.
   */
  default void watch(java.util.function.Supplier<java.time.Duration> limit,
      java.util.function.BiConsumer<String, String> lost) {
    // a native call in this JVM cannot be stopped
  }

  /** Counts the runtimes lost so far: when it changes, every model and compiled model obtained before is dead. */
  default long generation() {
    return 0;
  }

  /** The process the native calls run in, when it is a child. */
  default OptionalLong childPid() {
    return OptionalLong.empty();
  }

  /**
   * Wall time spent waiting on this runtime's calls so far, by call name (e.g. {@code readModel}, {@code compile},
   * {@code boundaryShapes}), in nanoseconds; empty where it is not counted (a runtime in this JVM). What a tune counts
   * as OpenVINO's time rather than hsdag's ({@link TimedBackend}).
   */
  default Map<String, Long> busyNanos() {
    return Map.of();
  }

  /** Resident memory of the process the native calls run in, in bytes (0 where it cannot be read). */
  default long residentBytes() {
    return CompileBudget.residentBytes();
  }

  @Override
  void close();

  /** A model read by OpenVINO ({@code ov::Model}). */
  interface Model extends AutoCloseable {
    /** Friendly names of the ops, in OpenVINO's topological order. */
    List<String> opNames();

    /** OpenVINO type names of the ops, aligned with {@link #opNames()}. */
    List<String> opTypes();

    /**
     * Every op as OpenVINO read it, aligned with {@link #opNames()}: its input count (one IR edge
     * each) and its inferred output shapes, e.g. {@code [1,64,56,56]} or {@code [?,128]}.
     */
    List<ModelOp> ops();

    /** Names of the model inputs. */
    List<String> inputNames();

    boolean inputIsDynamic(int input);

    /** Gives input {@code input} a static shape (before compiling). */
    void setInputShape(int input, long[] dims);

    /**
     * {@code query_model(model, device)}: whether each op (aligned with {@link #opNames()}) is
     * supported. A {@linkplain OpenVinoRuntime#isMetaDevice meta device} is queried on the
     * automatic core.
     */
    boolean[] query(String device);

    /** Sets the {@code "affinity"} of every node (unmapped nodes resolved by the shim; all-or-nothing). */
    void setAffinities(Map<String, String> nameToDevice);

    /** Removes every affinity (HETERO automatic mode). */
    void clearAffinities();

    /**
     * The runtime's own shape inference on a split's boundaries, without compiling: input {@code
     * ports[k]} of op {@code consumers[k]} (aligned with {@link #opNames()}) is cut as HETERO's
     * subgraph collector cuts it (a new Parameter with the source's element type and partial shape),
     * on a copy of the model. The model itself is unchanged.
     *
     * @throws OpenVinoException when shape inference fails on the cut model
     */
    BoundaryShapes boundaryShapes(int[] consumers, int[] ports);

    /**
     * Compiles on {@code device} (e.g. {@code HETERO:GPU.1,CPU} or {@code CPU}) on the manual
     * core; {@code cacheDir} may be null.
     *
     * @throws IllegalStateException for a {@linkplain OpenVinoRuntime#isMetaDevice meta device}
     *     while no affinities are set (that is an automatic compile: use {@link #compileAutomatic})
     */
    Compiled compile(String device, Path cacheDir, boolean profiling);

    /**
     * Removes every affinity and compiles on {@code device} (e.g. {@code HETERO:GPU.1,CPU},
     * {@code AUTO:GPU.1,CPU}) on the automatic core, so OpenVINO chooses the devices.
     */
    Compiled compileAutomatic(String device, Path cacheDir, boolean profiling);

    /**
     * Compiles on {@code device} on the manual core as {@link #compile} does, with OpenVINO's
     * throughput hint for {@code requests} requests in flight ({@code PERFORMANCE_HINT=THROUGHPUT},
     * {@code PERFORMANCE_HINT_NUM_REQUESTS}), as {@code benchmark_app -hint throughput -nireq N}
     * compiles; HETERO passes the hint on to every sub-device.
     */
    Compiled compileForThroughput(String device, Path cacheDir, int requests);

    /**
     * Writes the model as read to {@code xml} and the {@code .bin} beside it, as OpenVINO serialises it: no
     * weight compression, no transformation; before any reshape or affinity. A model read from ONNX, TensorFlow
     * Lite or PaddlePaddle becomes the IR of exactly what the runtime read.
     */
    default void save(Path xml) {
      throw new UnsupportedOperationException("this runtime cannot write models");
    }

    /**
     * A new model of the ops {@code opIndices} name (aligned with {@link #opNames()}), for profiling part of this
     * one: Constants they read stay Constants, inputs from other ops become new Parameters of the producer's shape
     * (static once this model was reshaped), outputs read outside the set become Results; names stay. This model is
     * unchanged; the caller closes the answer.
     *
     * @throws OpenVinoException when the runtime cannot build it
     */
    default Model extract(int[] opIndices) {
      throw new UnsupportedOperationException("this runtime cannot extract sub-models");
    }

    @Override
    void close();
  }

  /**
   * One op of a model as OpenVINO read it.
   *
   * @param name friendly name
   * @param type OpenVINO type name ({@code Constant}, {@code Relu}, …)
   * @param inputs number of inputs
   * @param outputShapes inferred output shapes, OpenVINO's notation ({@code [1,3,224,224]}, {@code ?} dynamic)
   */
  record ModelOp(String name, String type, int inputs, List<String> outputShapes) {
    public ModelOp {
      outputShapes = List.copyOf(outputShapes);
    }
  }

  /**
   * What the runtime's shape inference says of a split's boundaries ({@link Model#boundaryShapes}).
   *
   * @param shapes each cut tensor's shape inside its producer's sub-model, OpenVINO's notation ({@code [2,?]})
   * @param staticShapes whether each is static, as the runtime says ({@code PartialShape::is_static})
   * @param subModels the sub-models the cuts make (components holding a Parameter or a Result)
   */
  record BoundaryShapes(List<String> shapes, List<Boolean> staticShapes, int subModels) {
    public BoundaryShapes {
      shapes = List.copyOf(shapes);
      staticShapes = List.copyOf(staticShapes);
    }

    /** Whether cut {@code k}'s tensor has a static shape inside its producer's sub-model. */
    public boolean isStatic(int k) {
      return staticShapes.get(k);
    }
  }

  /** A compiled model with one infer request. */
  interface Compiled extends AutoCloseable {
    /**
     * The sub-model count as the compiled model reports it, unchecked: {@code
     * HETERO_NUMBER_OF_SUBMODELS} as an unsigned 64-bit value (it is a {@code size_t} that can wrap
     * around), 1 for a single-device compile. Check it with {@link SubModelCount}.
     */
    long reportedSubModels();

    /** Devices actually used ({@code ov::execution_devices}), comma-separated. */
    String executionDevices();

    /** Fills every input with random data from {@code seed}. */
    void fillInputs(long seed);

    /** Elements of input {@code input} (its shape must be static). */
    long inputSize(int input);

    /** Sets input {@code input} from floats, converted to its element type; needs {@link #inputSize} values. */
    void setInput(int input, float[] data);

    /** {@code warmup} untimed then {@code runs} timed synchronous inferences; milliseconds per run. */
    double[] inferTimed(int warmup, int runs);

    /**
     * {@code requests} asynchronous infer requests kept in flight (each with a copy of the inputs
     * {@link #fillInputs} set): {@code warmup} × {@code requests} completions untimed, then {@code
     * runs} windows of {@code requests} completions; each sample is a window's wall time over its
     * completions, the time per inference at steady state, ms.
     */
    double[] inferThroughput(int requests, int warmup, int runs);

    /** The outputs of the last inference, as floats. */
    float[][] outputs();

    /** Per-layer records of the last inference (compiled with profiling). */
    List<ProfilingRecord> profile();

    /** The primitives the devices execute, with the original layers fused into each. */
    List<ExecutedNode> executedNodes();

    @Override
    void close();
  }
}
