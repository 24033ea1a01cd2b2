/*
 * hsdag_ov_shim.h — the small, flat C-style surface hsdag needs from the OpenVINO C++ API.
 *
 * Why a shim: OpenVINO's C API has no node-level access, so it cannot set the per-node
 * "affinity" that HETERO's manual mode reads (see shared notes/openvino.md §2, §3.7). This file
 * exposes just what hsdag uses, with opaque handles and plain types, so a hand-written JavaCPP
 * class (org.hsdag.openvino.internal.OvShim) can map it without parsing any OpenVINO header.
 *
 * Conventions
 *  - Every function catches every C++ exception. Functions returning int return 0 on success
 *    and a negative code on failure; functions returning a handle return NULL on failure. The
 *    failure message is then available from hsdag_ov_last_error() on the same thread.
 *  - Strings returned as const char* are owned by the handle they came from (or are static)
 *    and stay valid until that handle is freed or the same getter family is called again.
 *  - Handles are not thread-safe; use one thread per handle (hsdag does).
 *
 * Requires C++17 and OpenVINO 2024.0 or newer (the "affinity" rt_info key of HETERO manual mode).
 */
#ifndef HSDAG_OV_SHIM_H
#define HSDAG_OV_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes. */
#define HSDAG_OV_OK 0
#define HSDAG_OV_ERROR (-1)       /* an OpenVINO exception; see hsdag_ov_last_error() */
#define HSDAG_OV_BAD_ARGUMENT (-2) /* a null handle, an index out of range, a bad map */

/* Profiling status values (same order as ov::ProfilingInfo::Status). */
#define HSDAG_OV_NOT_RUN 0
#define HSDAG_OV_OPTIMIZED_OUT 1
#define HSDAG_OV_EXECUTED 2

typedef struct hsdag_ov_core hsdag_ov_core;         /* ov::Core plus cached device names */
typedef struct hsdag_ov_model hsdag_ov_model;       /* std::shared_ptr<ov::Model> plus its ops */
typedef struct hsdag_ov_compiled hsdag_ov_compiled; /* ov::CompiledModel + one InferRequest */

/* The message of the last failure on this thread ("" if none). */
const char* hsdag_ov_last_error(void);

/* Runtime version, e.g. "2025.1.0-18503-6fec06580ab-releases/2025/1" (static storage). */
const char* hsdag_ov_version(void);
/* Major version of the headers the shim was compiled against (OPENVINO_VERSION_MAJOR). */
int hsdag_ov_compiled_major_version(void);

/* ---- core and devices ---- */
hsdag_ov_core* hsdag_ov_core_create(void);
void hsdag_ov_core_free(hsdag_ov_core* core);
/* Refreshes the device list; returns the number of devices or a negative code. */
int hsdag_ov_core_device_count(hsdag_ov_core* core);
/* Name ("CPU", "GPU.1") and full name of device i of the last refreshed list. */
const char* hsdag_ov_core_device_name(hsdag_ov_core* core, int i);
const char* hsdag_ov_core_device_full_name(hsdag_ov_core* core, int i);

/*
 * Directory of the loaded libopenvino, where the wheel and the archive keep the plugin libraries
 * (static storage; "" if it cannot be found).
 */
const char* hsdag_ov_library_dir(void);
/*
 * A test device: registers the CPU plugin's library (libopenvino_intel_cpu_plugin.so beside
 * libopenvino) a second time under `name` (OpenVINO requires it to contain "CPU" and no dot), so
 * that HETERO can split a model between two real devices on a CPU-only machine. Its settings are
 * set afterwards with hsdag_ov_core_set_property.
 */
int hsdag_ov_core_register_cpu_twin(hsdag_ov_core* core, const char* name);

/*
 * core.set_property(device, {key: value}) with the value given as text, as OpenVINO's own string
 * form of the property (e.g. "INFERENCE_PRECISION_HINT", "f32").
 */
int hsdag_ov_core_set_property(hsdag_ov_core* core, const char* device, const char* key, const char* value);

/*
 * An unsigned integer property of `device` (e.g. "GPU_DEVICE_TOTAL_MEM_SIZE"), read only when the
 * device lists `key` among its ov::supported_properties, so a device that does not report it is
 * never asked. Returns 1 with *value set when reported, 0 when the device does not list the key (or
 * reports a negative number), or a negative code.
 */
int hsdag_ov_core_device_uint_property(hsdag_ov_core* core, const char* device, const char* key, uint64_t* value);

/* ---- model ---- */
/* Reads model.xml (+ bin; NULL or "" means "<same name>.bin"). */
hsdag_ov_model* hsdag_ov_model_read(hsdag_ov_core* core, const char* xml_path, const char* bin_path);
void hsdag_ov_model_free(hsdag_ov_model* model);
/* Ops in topological order (ov::Model::get_ordered_ops). */
int hsdag_ov_model_op_count(hsdag_ov_model* model);
const char* hsdag_ov_model_op_name(hsdag_ov_model* model, int i); /* friendly name */
const char* hsdag_ov_model_op_type(hsdag_ov_model* model, int i); /* type name, e.g. "Constant" */
/* Inputs of op i (each is one edge of the IR), or a negative code. */
int hsdag_ov_model_op_input_count(hsdag_ov_model* model, int i);
/* Output shapes of op i as OpenVINO inferred them, e.g. "[1,64,56,56];[?,128]" ("" for no outputs). */
const char* hsdag_ov_model_op_output_shapes(hsdag_ov_model* model, int i);
/* Model inputs (Parameters), their names and whether their shape is dynamic. */
int hsdag_ov_model_input_count(hsdag_ov_model* model);
const char* hsdag_ov_model_input_name(hsdag_ov_model* model, int i);
int hsdag_ov_model_input_is_dynamic(hsdag_ov_model* model, int i);
/* Gives input i a static shape (ov::Model::reshape) before compiling. */
int hsdag_ov_model_set_input_shape(hsdag_ov_model* model, int i, int rank, const int64_t* dims);

/*
 * core.query_model(model, device): supported[k] = 1 when op k (get_ordered_ops order) is in the
 * answer, else 0. `supported` must hold hsdag_ov_model_op_count(model) ints.
 */
int hsdag_ov_model_query(hsdag_ov_core* core, hsdag_ov_model* model, const char* device, int32_t* supported);

/*
 * Sets rt_info["affinity"] on every node from the friendly-name -> device map (n entries).
 * Nodes absent from the map are resolved as HETERO needs: Constants and constant-only chains
 * (decompression Converts) take their consumer's device, Parameters their first consumer's,
 * Results their producer's. All-or-nothing: if any node stays unassigned, or a name is not in
 * the model, nothing is changed and HSDAG_OV_BAD_ARGUMENT is returned with the reason.
 */
int hsdag_ov_model_set_affinities(hsdag_ov_model* model, int n, const char** names, const char** devices);
/* Removes every "affinity" entry (back to HETERO automatic mode). */
int hsdag_ov_model_clear_affinities(hsdag_ov_model* model);

/* ---- compile and run ---- */
/*
 * compile_model(model, device, {PERF_COUNT if profiling, CACHE_DIR if cache_dir non-empty})
 * and creates one infer request. device is e.g. "HETERO:GPU.1,CPU" or "CPU". Compile automatic
 * HETERO/AUTO (no affinities) and query HETERO on a different core than manual-affinity
 * placements: see hsdag_ov_compiled_submodels. When compiling succeeds but creating the infer
 * request fails, the last error starts with HSDAG_OV_INFER_REQUEST_STAGE.
 */
#define HSDAG_OV_INFER_REQUEST_STAGE "creating the infer request: "
hsdag_ov_compiled* hsdag_ov_compile(hsdag_ov_core* core, hsdag_ov_model* model, const char* device,
                                    const char* cache_dir, int profiling);
void hsdag_ov_compiled_free(hsdag_ov_compiled* compiled);
/*
 * The sub-model count the compiled model reports, unchecked: HETERO_NUMBER_OF_SUBMODELS read as the
 * size_t it is declared as (HETERO plugin, src/plugins/hetero/src/properties.hpp), or 1 for a
 * non-HETERO compile. The plugin computes it as compiled sub-models minus a plugin-wide counter
 * that automatic HETERO compiles/queries on the same ov::Core increase and never reset, so the
 * value may be too low or wrapped around; the Java side checks it (SubModelCount).
 */
int hsdag_ov_compiled_submodels(hsdag_ov_compiled* compiled, uint64_t* count);
/* ov::execution_devices joined by ",". */
const char* hsdag_ov_compiled_execution_devices(hsdag_ov_compiled* compiled);
/*
 * Fills every input with seeded random data of its element type and (static) shape: floats
 * uniform in [-1, 1), integers and booleans 0 or 1 (valid token ids, attention masks and flags
 * alike: a mask of 9 turns BERT's (1 - mask) x float-min into inf). Fails naming the input if its
 * shape is still dynamic.
 */
int hsdag_ov_fill_inputs(hsdag_ov_compiled* compiled, int64_t seed);
/* Elements of input i (static shape), or a negative code (dynamic shape, no such input). */
int64_t hsdag_ov_input_size(hsdag_ov_compiled* compiled, int i);
/*
 * Sets input i from n floats converted to its element type (float types, integer types
 * truncated toward zero, boolean = nonzero). n must equal hsdag_ov_input_size(compiled, i).
 */
int hsdag_ov_input_write(hsdag_ov_compiled* compiled, int i, const float* data, int64_t n);
/* warmup untimed + runs timed synchronous infer() calls; samples_ms must hold `runs` doubles. */
int hsdag_ov_infer_timed(hsdag_ov_compiled* compiled, int warmup, int runs, double* samples_ms);
/* Outputs of the last inference, converted to float. */
int hsdag_ov_output_count(hsdag_ov_compiled* compiled);
int64_t hsdag_ov_output_size(hsdag_ov_compiled* compiled, int i); /* elements, or negative */
int hsdag_ov_output_read(hsdag_ov_compiled* compiled, int i, float* out, int64_t capacity);

/* ---- per-layer profiling of the last inference (needs profiling=1 at compile) ---- */
/* Collects get_profiling_info(); returns the record count or a negative code. */
int hsdag_ov_profile_collect(hsdag_ov_compiled* compiled);
/* Record i of the last collect. node_name keeps HETERO's "subgraph<k>: " prefix. */
const char* hsdag_ov_profile_node_name(hsdag_ov_compiled* compiled, int i);
const char* hsdag_ov_profile_node_type(hsdag_ov_compiled* compiled, int i);
const char* hsdag_ov_profile_exec_type(hsdag_ov_compiled* compiled, int i);
int hsdag_ov_profile_status(hsdag_ov_compiled* compiled, int i);
int64_t hsdag_ov_profile_real_us(hsdag_ov_compiled* compiled, int i);
int64_t hsdag_ov_profile_cpu_us(hsdag_ov_compiled* compiled, int i);

/*
 * ---- executed nodes of the compiled model (compiled.get_runtime_model()) ----
 * Each node is one primitive the device runs; its friendly name is the name profiling records
 * carry (CPU plugin: both are the plugin node's name), and its rt_info "originalLayersNames"
 * (ov::exec_model_info::ORIGINAL_NAMES) lists, comma-separated, the original layers fused into
 * it. Returns the node count or a negative code.
 */
int hsdag_ov_runtime_collect(hsdag_ov_compiled* compiled);
const char* hsdag_ov_runtime_node_name(hsdag_ov_compiled* compiled, int i);
/* "originalLayersNames" of node i, or "" when the plugin does not set it. */
const char* hsdag_ov_runtime_original_names(hsdag_ov_compiled* compiled, int i);

#ifdef __cplusplus
}
#endif

#endif /* HSDAG_OV_SHIM_H */

/*
 * ---- throughput: several asynchronous infer requests in flight (issue 39) ----
 * Appended as a block of its own, with its own guard, so the declarations above stay untouched.
 */
#ifndef HSDAG_OV_SHIM_THROUGHPUT_H
#define HSDAG_OV_SHIM_THROUGHPUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * hsdag_ov_compile with the throughput performance hint, as `benchmark_app -hint throughput
 * -nireq N` compiles: {PERFORMANCE_HINT: THROUGHPUT, PERFORMANCE_HINT_NUM_REQUESTS: requests}
 * (+ CACHE_DIR if cache_dir is non-empty), then one infer request for hsdag_ov_fill_inputs and
 * hsdag_ov_input_write. On HETERO the hint reaches every sub-device's compile. Same failures as
 * hsdag_ov_compile (HSDAG_OV_INFER_REQUEST_STAGE prefix when the infer request is refused).
 */
hsdag_ov_compiled* hsdag_ov_compile_throughput(hsdag_ov_core* core, hsdag_ov_model* model, const char* device,
                                               const char* cache_dir, int requests);

/*
 * Keeps `requests` asynchronous infer requests of `compiled` in flight (a closed loop: each
 * completion starts that request again, as benchmark_app runs): ov::InferRequest::start_async with
 * a completion callback (set_callback) and wait (openvino/runtime/infer_request.hpp of the wheel,
 * 2026.4.1). Each request gets its own copy of the inputs of the compiled's own request (fill them
 * first). `warmup` x requests completions are untimed; then `runs` windows of `requests`
 * completions each: samples_ms[k] = the wall time of window k over `requests`, the time per
 * inference at steady state, ms (so their mean is the whole timed span over its completions).
 * samples_ms must hold `runs` doubles. Returns 0, or a negative code (a failed request's message
 * in hsdag_ov_last_error); every request has finished when it returns.
 */
int hsdag_ov_infer_throughput(hsdag_ov_compiled* compiled, int requests, int warmup, int runs, double* samples_ms);

#ifdef __cplusplus
}
#endif

#endif /* HSDAG_OV_SHIM_THROUGHPUT_H */

/*
 * ---- the runtime as the oracle of HETERO's sub-model boundaries, without compiling ----
 * Appended as a block of its own, with its own guard, so the declarations above stay untouched.
 */
#ifndef HSDAG_OV_SHIM_BOUNDARIES_H
#define HSDAG_OV_SHIM_BOUNDARIES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A split's boundaries rebuilt as HETERO's subgraph collector builds them
 * (SubgraphCollector::split_subgraphs_by_parameter_results, src/plugins/hetero/src/subgraph_collector.cpp),
 * on a clone of the model: cut k is input port consumer_ports[k] of op consumer_ops[k]
 * (hsdag_ov_model_op_* order); unless its source is a Constant, that input is fed by a new
 * Parameter with the source output's element type and partial shape, and the source output gets a
 * Result. Then the runtime's own shape inference runs on the clone (validate_nodes_and_infer_types):
 * is_static[k] = 1 when cut k's tensor has a static shape inside its producer's sub-model (the
 * runtime links a static tensor to the next sub-model), else 0. Returns the number of sub-models
 * (components over the uncut edges holding a Parameter or a Result, as the collector counts them), or a
 * negative code (shape inference failing on the cut model included). The model itself is unchanged.
 */
int hsdag_ov_model_boundaries(hsdag_ov_model* model, int n, const int32_t* consumer_ops, const int32_t* consumer_ports,
                              int32_t* is_static);
/* Cut k's shape inside its producer's sub-model from the last hsdag_ov_model_boundaries call, e.g. "[2,?]". */
const char* hsdag_ov_model_boundary_shape(hsdag_ov_model* model, int k);

#ifdef __cplusplus
}
#endif

#endif /* HSDAG_OV_SHIM_BOUNDARIES_H */

/*
 * ---- a model another framework wrote, kept as IR ----
 * Appended as a block of its own, with its own guard, so the declarations above stay untouched.
 */
#ifndef HSDAG_OV_SHIM_SAVE_H
#define HSDAG_OV_SHIM_SAVE_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes the model as read (hsdag_ov_model_read reads ONNX, TensorFlow Lite and PaddlePaddle files through the
 * runtime's frontends too) to xml_path and bin_path as IR, with ov::serialize: "as-is", no weight compression
 * and no other transformation (openvino/core/graph_util.hpp), so the IR has the ops, names and weights the
 * runtime gives the source. Call it before reshaping or setting affinities.
 */
int hsdag_ov_model_save(hsdag_ov_model* model, const char* xml_path, const char* bin_path);

/*
 * A new model of the ops op_indices[0..n) name (indices as hsdag_ov_model_op_name counts them) on a copy of model,
 * for profiling part of it: a kept op's input from a Constant keeps the Constant, one from any other op outside the
 * set becomes a new Parameter with that output's element type and shape (static once the model was reshaped), and
 * a kept op's output read outside the set (or by the model's Results) becomes a new Result. Parameters, Results and
 * Constants named in op_indices are ignored. Friendly names stay, so per-layer records name the same layers. The
 * model itself is unchanged; free the answer with hsdag_ov_model_free. Null on error (hsdag_ov_last_error).
 */
hsdag_ov_model* hsdag_ov_model_extract(hsdag_ov_model* model, int n, const int32_t* op_indices);

#ifdef __cplusplus
}
#endif

#endif /* HSDAG_OV_SHIM_SAVE_H */
