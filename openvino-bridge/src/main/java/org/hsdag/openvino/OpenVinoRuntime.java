package org.hsdag.openvino;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hsdag.backend.DeviceInfo;

/**
 * The few native OpenVINO operations hsdag uses, one method per shim function family. The only
 * implementation over real OpenVINO is {@code org.hsdag.openvino.internal.ShimRuntime} (JavaCPP),
 * obtained from {@link OpenVinoAvailability#openRuntime()}; keeping this interface free of JavaCPP
 * types lets everything above it load and be tested on machines without OpenVINO.
 *
 * <p>Every method reports OpenVINO failures as {@link OpenVinoException} with OpenVINO's message.
 * Handles are not thread-safe: use each from one thread at a time.
 */
public interface OpenVinoRuntime extends AutoCloseable {
  /** The runtime build string, e.g. {@code 2025.1.0-18503-…}. */
  String version();

  /** Available devices with their full names, in OpenVINO's order. */
  List<DeviceInfo> devices();

  /** Reads {@code model.xml} and its {@code .bin} (same name). */
  Model readModel(Path xml);

  @Override
  void close();

  /** A model read by OpenVINO ({@code ov::Model}). */
  interface Model extends AutoCloseable {
    /** Friendly names of the ops, in OpenVINO's topological order. */
    List<String> opNames();

    /** OpenVINO type names of the ops, aligned with {@link #opNames()}. */
    List<String> opTypes();

    /** Names of the model inputs. */
    List<String> inputNames();

    boolean inputIsDynamic(int input);

    /** Gives input {@code input} a static shape (before compiling). */
    void setInputShape(int input, long[] dims);

    /** {@code query_model(model, device)}: whether each op (aligned with {@link #opNames()}) is supported. */
    boolean[] query(String device);

    /** Sets the {@code "affinity"} of every node (unmapped nodes resolved by the shim; all-or-nothing). */
    void setAffinities(Map<String, String> nameToDevice);

    /** Removes every affinity (HETERO automatic mode). */
    void clearAffinities();

    /** Compiles on {@code device} (e.g. {@code HETERO:GPU.1,CPU}); {@code cacheDir} may be null. */
    Compiled compile(String device, Path cacheDir, boolean profiling);

    @Override
    void close();
  }

  /** A compiled model with one infer request. */
  interface Compiled extends AutoCloseable {
    /** HETERO sub-models (1 for a single-device compile). */
    int subModels();

    /** Devices actually used ({@code ov::execution_devices}), comma-separated. */
    String executionDevices();

    /** Fills every input with random data from {@code seed}. */
    void fillInputs(long seed);

    /** {@code warmup} untimed then {@code runs} timed synchronous inferences; milliseconds per run. */
    double[] inferTimed(int warmup, int runs);

    /** The outputs of the last inference, as floats. */
    float[][] outputs();

    /** Per-layer records of the last inference (compiled with profiling). */
    List<ProfilingRecord> profile();

    @Override
    void close();
  }
}
