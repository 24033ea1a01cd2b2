package org.hsdag.openvino.internal;

import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.Loader;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.javacpp.PointerPointer;
import org.bytedeco.javacpp.annotation.Cast;
import org.bytedeco.javacpp.annotation.Name;
import org.bytedeco.javacpp.annotation.Opaque;
import org.bytedeco.javacpp.annotation.Platform;

/**
 * Hand-written JavaCPP mapping of {@code src/main/cpp/hsdag_ov_shim.h} (no header parsing).
 * {@code native/provision.sh} has JavaCPP generate this class's JNI glue and compiles it with the shim into
 * {@code libjniOvShim.so}, linked against {@code libopenvino} (the {@code link} below is not used); without it the class
 * compiles but its static initialiser throws {@link UnsatisfiedLinkError} — callers go through
 * {@link org.hsdag.openvino.OpenVinoAvailability}, which explains why.
 *
 * <p>Names follow the C functions one-to-one; only {@link ShimRuntime} calls them.
 */
@Platform(
    compiler = "cpp17",
    include = {"hsdag_ov_shim.h", "hsdag_ov_shim.cpp"},
    link = "openvino")
public final class OvShim {
  static {
    Loader.load();
  }

  private OvShim() {}

  /** {@code hsdag_ov_core*}. */
  @Opaque
  @Name("hsdag_ov_core")
  public static final class CoreHandle extends Pointer {
    public CoreHandle() {
      super((Pointer) null);
    }

    public CoreHandle(Pointer p) {
      super(p);
    }
  }

  /** {@code hsdag_ov_model*}. */
  @Opaque
  @Name("hsdag_ov_model")
  public static final class ModelHandle extends Pointer {
    public ModelHandle() {
      super((Pointer) null);
    }

    public ModelHandle(Pointer p) {
      super(p);
    }
  }

  /** {@code hsdag_ov_compiled*}. */
  @Opaque
  @Name("hsdag_ov_compiled")
  public static final class CompiledHandle extends Pointer {
    public CompiledHandle() {
      super((Pointer) null);
    }

    public CompiledHandle(Pointer p) {
      super(p);
    }
  }

  public static native @Cast("const char*") BytePointer hsdag_ov_last_error();

  public static native @Cast("const char*") BytePointer hsdag_ov_version();

  public static native int hsdag_ov_compiled_major_version();

  public static native CoreHandle hsdag_ov_core_create();

  public static native void hsdag_ov_core_free(CoreHandle core);

  public static native int hsdag_ov_core_device_count(CoreHandle core);

  public static native @Cast("const char*") BytePointer hsdag_ov_core_device_name(CoreHandle core, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_core_device_full_name(CoreHandle core, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_library_dir();

  public static native int hsdag_ov_core_register_cpu_twin(CoreHandle core, String name);

  public static native int hsdag_ov_core_set_property(CoreHandle core, String device, String key, String value);

  public static native int hsdag_ov_core_device_uint_property(
      CoreHandle core, String device, String key, @Cast("uint64_t*") long[] value);

  public static native ModelHandle hsdag_ov_model_read(CoreHandle core, String xmlPath, String binPath);

  public static native void hsdag_ov_model_free(ModelHandle model);

  public static native int hsdag_ov_model_op_count(ModelHandle model);

  public static native @Cast("const char*") BytePointer hsdag_ov_model_op_name(ModelHandle model, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_model_op_type(ModelHandle model, int i);

  public static native int hsdag_ov_model_op_input_count(ModelHandle model, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_model_op_output_shapes(ModelHandle model, int i);

  public static native int hsdag_ov_model_input_count(ModelHandle model);

  public static native @Cast("const char*") BytePointer hsdag_ov_model_input_name(ModelHandle model, int i);

  public static native int hsdag_ov_model_input_is_dynamic(ModelHandle model, int i);

  public static native int hsdag_ov_model_set_input_shape(
      ModelHandle model, int i, int rank, @Cast("const int64_t*") long[] dims);

  public static native int hsdag_ov_model_query(
      CoreHandle core, ModelHandle model, String device, @Cast("int32_t*") int[] supported);

  public static native int hsdag_ov_model_set_affinities(
      ModelHandle model, int n, @Cast("const char**") PointerPointer<?> names,
      @Cast("const char**") PointerPointer<?> devices);

  public static native int hsdag_ov_model_clear_affinities(ModelHandle model);

  public static native CompiledHandle hsdag_ov_compile(
      CoreHandle core, ModelHandle model, String device, String cacheDir, int profiling);

  public static native void hsdag_ov_compiled_free(CompiledHandle compiled);

  public static native int hsdag_ov_compiled_submodels(CompiledHandle compiled, @Cast("uint64_t*") long[] count);

  public static native @Cast("const char*") BytePointer hsdag_ov_compiled_execution_devices(CompiledHandle compiled);

  public static native int hsdag_ov_fill_inputs(CompiledHandle compiled, @Cast("int64_t") long seed);

  public static native @Cast("int64_t") long hsdag_ov_input_size(CompiledHandle compiled, int i);

  public static native int hsdag_ov_input_write(
      CompiledHandle compiled, int i, @Cast("const float*") float[] data, @Cast("int64_t") long n);

  public static native int hsdag_ov_infer_timed(CompiledHandle compiled, int warmup, int runs, double[] samplesMs);

  public static native int hsdag_ov_output_count(CompiledHandle compiled);

  public static native @Cast("int64_t") long hsdag_ov_output_size(CompiledHandle compiled, int i);

  public static native int hsdag_ov_output_read(CompiledHandle compiled, int i, float[] out,
      @Cast("int64_t") long capacity);

  public static native int hsdag_ov_profile_collect(CompiledHandle compiled);

  public static native @Cast("const char*") BytePointer hsdag_ov_profile_node_name(CompiledHandle compiled, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_profile_node_type(CompiledHandle compiled, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_profile_exec_type(CompiledHandle compiled, int i);

  public static native int hsdag_ov_profile_status(CompiledHandle compiled, int i);

  public static native @Cast("int64_t") long hsdag_ov_profile_real_us(CompiledHandle compiled, int i);

  public static native @Cast("int64_t") long hsdag_ov_profile_cpu_us(CompiledHandle compiled, int i);

  public static native int hsdag_ov_runtime_collect(CompiledHandle compiled);

  public static native @Cast("const char*") BytePointer hsdag_ov_runtime_node_name(CompiledHandle compiled, int i);

  public static native @Cast("const char*") BytePointer hsdag_ov_runtime_original_names(CompiledHandle compiled, int i);

  public static native CompiledHandle hsdag_ov_compile_throughput(
      CoreHandle core, ModelHandle model, String device, String cacheDir, int requests);

  public static native int hsdag_ov_infer_throughput(
      CompiledHandle compiled, int requests, int warmup, int runs, double[] samplesMs);

  public static native int hsdag_ov_model_boundaries(ModelHandle model, int n,
      @Cast("const int32_t*") int[] consumerOps,
      @Cast("const int32_t*") int[] consumerPorts, @Cast("int32_t*") int[] isStatic);

  public static native @Cast("const char*") BytePointer hsdag_ov_model_boundary_shape(ModelHandle model, int k);

  public static native int hsdag_ov_model_save(ModelHandle model, String xmlPath, String binPath);

  public static native ModelHandle hsdag_ov_model_extract(ModelHandle model, int n,
      @Cast("const int32_t*") int[] opIndices);
}
