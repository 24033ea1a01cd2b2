// hsdag_ov_shim.cpp — implementation of hsdag_ov_shim.h over the OpenVINO C++ API (C++17).
//
// Built only by the openvino-bridge "openvino-native" Maven profile, where JavaCPP compiles it
// into the JNI library together with the generated bindings. Every entry point catches every
// exception: nothing may unwind into the JVM.

#include "hsdag_ov_shim.h"

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <openvino/openvino.hpp>
#include <openvino/op/constant.hpp>
#include <openvino/op/parameter.hpp>
#include <openvino/op/result.hpp>

struct hsdag_ov_core {
  ov::Core core;
  std::vector<std::string> devices;
  std::vector<std::string> full_names;
};

struct hsdag_ov_model {
  std::shared_ptr<ov::Model> model;
  std::vector<std::shared_ptr<ov::Node>> ops;  // get_ordered_ops(), refreshed after reshape
  std::vector<std::string> names;
  std::vector<std::string> types;
  std::vector<std::string> input_names;
  std::string shapes;  // the last hsdag_ov_model_op_output_shapes answer
  std::vector<std::string> boundary_shapes;  // the last hsdag_ov_model_boundaries answer
};

struct hsdag_ov_compiled {
  ov::CompiledModel compiled;
  ov::InferRequest request;
  bool hetero = false;
  std::string execution_devices;
  std::vector<ov::ProfilingInfo> profile;
  std::vector<std::string> runtime_names;
  std::vector<std::string> runtime_original_names;
};

namespace {

thread_local std::string last_error;

int fail(int code, const std::string& message) {
  last_error = message;
  return code;
}

// Runs body; turns any exception into HSDAG_OV_ERROR with its message.
template <typename F>
int guarded(F&& body) {
  try {
    last_error.clear();
    return body();
  } catch (const std::exception& e) {
    return fail(HSDAG_OV_ERROR, e.what());
  } catch (...) {
    return fail(HSDAG_OV_ERROR, "unknown C++ exception in OpenVINO");
  }
}

template <typename T, typename F>
T* guarded_ptr(F&& body) {
  try {
    last_error.clear();
    return body();
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown C++ exception in OpenVINO";
  }
  return nullptr;
}

bool in_range(int i, size_t n) { return i >= 0 && static_cast<size_t>(i) < n; }

void refresh_ops(hsdag_ov_model* m) {
  m->ops = m->model->get_ordered_ops();
  m->names.clear();
  m->types.clear();
  for (const auto& op : m->ops) {
    m->names.push_back(op->get_friendly_name());
    m->types.push_back(std::string(op->get_type_info().name));
  }
  m->input_names.clear();
  for (const auto& in : m->model->inputs()) {
    const auto& names = in.get_names();
    m->input_names.push_back(names.empty() ? in.get_node()->get_friendly_name() : in.get_any_name());
  }
}

template <typename T>
void fill_real(ov::Tensor& t, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  T* p = static_cast<T*>(t.data());  // raw pointer: the caller matched T to the element type
  for (size_t k = 0; k < t.get_size(); ++k) p[k] = T(u(rng));
}

template <typename T>
void fill_int(ov::Tensor& t, std::mt19937_64& rng, int hi) {
  std::uniform_int_distribution<int> u(0, hi - 1);
  T* p = static_cast<T*>(t.data());
  for (size_t k = 0; k < t.get_size(); ++k) p[k] = static_cast<T>(u(rng));
}

// Takes the handle by value so the non-const data() is called: data() on a const ov::Tensor is
// deprecated in some releases (2025.2-2025.4 per the issue that asked for this); the non-const call
// is the one every release has.
template <typename T>
void copy_as_float(ov::Tensor t, float* out) {
  const T* p = static_cast<const T*>(t.data());
  for (size_t k = 0; k < t.get_size(); ++k) out[k] = static_cast<float>(p[k]);
}

template <typename T>
void copy_from_float(ov::Tensor& t, const float* in) {
  T* p = static_cast<T*>(t.data());
  for (size_t k = 0; k < t.get_size(); ++k) p[k] = static_cast<T>(in[k]);
}

const char* at_or_empty(const std::vector<std::string>& v, int i) { return in_range(i, v.size()) ? v[i].c_str() : ""; }

/*
 * Compiles with {@code config}, then creates the infer request: every compile of the shim goes through here, so a
 * failure names its stage the same way (HETERO compiles a split it then cannot link: docs/hetero-rules.md).
 */
hsdag_ov_compiled* compile_with(hsdag_ov_core* core, hsdag_ov_model* model, const char* device, ov::AnyMap config,
                                const char* cache_dir) {
  if (cache_dir && *cache_dir) config.emplace(ov::cache_dir.name(), std::string(cache_dir));
  auto c = std::make_unique<hsdag_ov_compiled>();
  std::string dev(device);
  c->hetero = dev.rfind("HETERO", 0) == 0;
  c->compiled = core->core.compile_model(model->model, dev, config);
  try {
    c->request = c->compiled.create_infer_request();
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string(HSDAG_OV_INFER_REQUEST_STAGE) + e.what());
  }
  try {
    std::vector<std::string> used = c->compiled.get_property(ov::execution_devices);
    std::string joined;
    for (const auto& u : used) joined += (joined.empty() ? "" : ",") + u;
    c->execution_devices = joined;
  } catch (const std::exception&) {
    c->execution_devices = dev;  // older plugins may not report it
  }
  return c.release();
}

}  // namespace

extern "C" {

const char* hsdag_ov_last_error(void) { return last_error.c_str(); }

const char* hsdag_ov_version(void) {
  try {
    return ov::get_openvino_version().buildNumber;
  } catch (...) {
    return "";
  }
}

int hsdag_ov_compiled_major_version(void) { return OPENVINO_VERSION_MAJOR; }

hsdag_ov_core* hsdag_ov_core_create(void) {
  return guarded_ptr<hsdag_ov_core>([] { return new hsdag_ov_core(); });
}

void hsdag_ov_core_free(hsdag_ov_core* core) {
  try {
    delete core;
  } catch (...) {
  }
}

int hsdag_ov_core_device_count(hsdag_ov_core* core) {
  if (!core) return fail(HSDAG_OV_BAD_ARGUMENT, "null core");
  return guarded([&] {
    std::vector<std::string> devices = core->core.get_available_devices();
    std::vector<std::string> full;
    for (const auto& d : devices) {
      std::string name;
      try {
        name = core->core.get_property(d, ov::device::full_name);
      } catch (const std::exception&) {
        name = "";  // a device without FULL_DEVICE_NAME is still usable
      }
      full.push_back(name);
    }
    core->devices = devices;
    core->full_names = full;
    return static_cast<int>(devices.size());
  });
}

const char* hsdag_ov_core_device_name(hsdag_ov_core* core, int i) {
  if (!core || !in_range(i, core->devices.size())) return "";
  return core->devices[i].c_str();
}

const char* hsdag_ov_core_device_full_name(hsdag_ov_core* core, int i) {
  if (!core || !in_range(i, core->full_names.size())) return "";
  return core->full_names[i].c_str();
}

const char* hsdag_ov_library_dir(void) {
  static std::string dir = [] {
    Dl_info info{};
    // Any function exported by libopenvino names the file it was loaded from.
    if (dladdr(reinterpret_cast<void*>(&ov::get_openvino_version), &info) == 0 || !info.dli_fname) return std::string();
    std::string file(info.dli_fname);
    size_t slash = file.rfind('/');
    return slash == std::string::npos ? std::string(".") : file.substr(0, slash);
  }();
  return dir.c_str();
}

int hsdag_ov_core_register_cpu_twin(hsdag_ov_core* core, const char* name) {
  if (!core || !name || !*name) return fail(HSDAG_OV_BAD_ARGUMENT, "null core or empty device name");
  std::string dir = hsdag_ov_library_dir();
  if (dir.empty()) return fail(HSDAG_OV_ERROR, "cannot find the folder of libopenvino (dladdr failed)");
  return guarded([&] {
    core->core.register_plugin(dir + "/libopenvino_intel_cpu_plugin.so", std::string(name));
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_core_set_property(hsdag_ov_core* core, const char* device, const char* key, const char* value) {
  if (!core || !device || !key || !value) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  return guarded([&] {
    core->core.set_property(std::string(device), ov::AnyMap{{std::string(key), std::string(value)}});
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_core_device_uint_property(hsdag_ov_core* core, const char* device, const char* key, uint64_t* value) {
  if (!core || !device || !key || !value) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  return guarded([&] {
    const std::string dev(device);
    const std::vector<ov::PropertyName> listed = core->core.get_property(dev, ov::supported_properties);
    if (std::find(listed.begin(), listed.end(), std::string(key)) == listed.end()) return 0;
    const ov::Any v = core->core.get_property(dev, std::string(key));
    // The memory sizes are declared uint64_t (GPU and NPU headers); a signed or textual answer is accepted too.
    if (v.is<uint64_t>()) {
      *value = v.as<uint64_t>();
    } else if (v.is<int64_t>()) {
      if (v.as<int64_t>() < 0) return 0;
      *value = static_cast<uint64_t>(v.as<int64_t>());
    } else if (v.is<uint32_t>()) {
      *value = v.as<uint32_t>();
    } else {
      const std::string text = v.as<std::string>();
      if (text.empty() || text[0] == '-') return 0;
      *value = std::stoull(text);
    }
    return 1;
  });
}

hsdag_ov_model* hsdag_ov_model_read(hsdag_ov_core* core, const char* xml_path, const char* bin_path) {
  if (!core || !xml_path) {
    last_error = "null core or model path";
    return nullptr;
  }
  return guarded_ptr<hsdag_ov_model>([&] {
    auto m = std::make_unique<hsdag_ov_model>();
    std::string bin = bin_path ? bin_path : "";
    m->model = core->core.read_model(std::string(xml_path), bin);
    refresh_ops(m.get());
    return m.release();
  });
}

void hsdag_ov_model_free(hsdag_ov_model* model) {
  try {
    delete model;
  } catch (...) {
  }
}

int hsdag_ov_model_op_count(hsdag_ov_model* model) {
  return model ? static_cast<int>(model->ops.size()) : fail(HSDAG_OV_BAD_ARGUMENT, "null model");
}

const char* hsdag_ov_model_op_name(hsdag_ov_model* model, int i) {
  return model && in_range(i, model->names.size()) ? model->names[i].c_str() : "";
}

const char* hsdag_ov_model_op_type(hsdag_ov_model* model, int i) {
  return model && in_range(i, model->types.size()) ? model->types[i].c_str() : "";
}

int hsdag_ov_model_op_input_count(hsdag_ov_model* model, int i) {
  if (!model || !in_range(i, model->ops.size())) return fail(HSDAG_OV_BAD_ARGUMENT, "no such op");
  return static_cast<int>(model->ops[i]->get_input_size());
}

const char* hsdag_ov_model_op_output_shapes(hsdag_ov_model* model, int i) {
  if (!model || !in_range(i, model->ops.size())) return "";
  try {
    std::string joined;
    for (const auto& out : model->ops[i]->outputs()) {
      joined += (joined.empty() ? "" : ";") + out.get_partial_shape().to_string();
    }
    model->shapes = joined;
  } catch (...) {
    model->shapes = "";
  }
  return model->shapes.c_str();
}

int hsdag_ov_model_input_count(hsdag_ov_model* model) {
  return model ? static_cast<int>(model->input_names.size()) : fail(HSDAG_OV_BAD_ARGUMENT, "null model");
}

const char* hsdag_ov_model_input_name(hsdag_ov_model* model, int i) {
  return model && in_range(i, model->input_names.size()) ? model->input_names[i].c_str() : "";
}

int hsdag_ov_model_input_is_dynamic(hsdag_ov_model* model, int i) {
  if (!model || !in_range(i, model->input_names.size())) return fail(HSDAG_OV_BAD_ARGUMENT, "no such input");
  return guarded([&] { return model->model->input(i).get_partial_shape().is_dynamic() ? 1 : 0; });
}

int hsdag_ov_model_set_input_shape(hsdag_ov_model* model, int i, int rank, const int64_t* dims) {
  if (!model || !in_range(i, model->input_names.size()) || rank < 0 || (rank > 0 && !dims)) {
    return fail(HSDAG_OV_BAD_ARGUMENT, "bad input index or shape");
  }
  return guarded([&] {
    std::vector<ov::Dimension> d;
    for (int k = 0; k < rank; ++k) d.emplace_back(dims[k]);
    std::map<size_t, ov::PartialShape> shapes;
    shapes[static_cast<size_t>(i)] = ov::PartialShape(d);
    model->model->reshape(shapes);
    refresh_ops(model);
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_model_query(hsdag_ov_core* core, hsdag_ov_model* model, const char* device, int32_t* supported) {
  if (!core || !model || !device || !supported) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  return guarded([&] {
    ov::SupportedOpsMap answer = core->core.query_model(model->model, std::string(device));
    for (size_t k = 0; k < model->names.size(); ++k) {
      supported[k] = answer.count(model->names[k]) ? 1 : 0;
    }
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_model_set_affinities(hsdag_ov_model* model, int n, const char** names, const char** devices) {
  if (!model || n < 0 || (n > 0 && (!names || !devices))) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  return guarded([&] {
    std::unordered_map<std::string, std::string> wanted;
    for (int k = 0; k < n; ++k) {
      if (!names[k] || !devices[k] || !*devices[k]) return fail(HSDAG_OV_BAD_ARGUMENT, "empty name or device in the map");
      wanted[names[k]] = devices[k];
    }
    const auto& ops = model->ops;
    std::unordered_map<const ov::Node*, size_t> index;
    for (size_t k = 0; k < ops.size(); ++k) index[ops[k].get()] = k;
    {
      std::unordered_map<std::string, bool> present;
      for (const auto& name : model->names) present[name] = true;
      for (const auto& kv : wanted) {
        if (!present.count(kv.first)) {
          return fail(HSDAG_OV_BAD_ARGUMENT, "placement names node '" + kv.first + "', which is not in the model");
        }
      }
    }
    std::vector<std::string> device(ops.size());
    std::vector<bool> const_only(ops.size(), false);
    for (size_t k = 0; k < ops.size(); ++k) {
      const auto& op = ops[k];
      auto it = wanted.find(model->names[k]);
      if (it != wanted.end()) device[k] = it->second;
      if (ov::is_type<ov::op::v0::Constant>(op)) {
        const_only[k] = true;
      } else if (!ov::is_type<ov::op::v0::Parameter>(op) && op->get_input_size() > 0) {
        bool all = true;
        for (size_t j = 0; j < op->get_input_size(); ++j) {
          all = all && const_only[index.at(op->input_value(j).get_node())];
        }
        const_only[k] = all;
      }
    }
    // Unmapped constants, constant-only chains and Parameters take their earliest consumer's device.
    for (size_t r = ops.size(); r-- > 0;) {
      const auto& op = ops[r];
      bool follows_consumer = const_only[r] || ov::is_type<ov::op::v0::Parameter>(op);
      if (!device[r].empty() || !follows_consumer) continue;  // the caller's map wins
      size_t best = ops.size();
      for (const auto& out : op->outputs()) {
        for (const auto& in : out.get_target_inputs()) {
          size_t c = index.at(in.get_node());
          if (!device[c].empty() && c < best) best = c;
        }
      }
      if (best < ops.size()) device[r] = device[best];
    }
    // Unmapped Results take their producer's device (HETERO would merge them into it anyway).
    for (size_t k = 0; k < ops.size(); ++k) {
      if (device[k].empty() && ov::is_type<ov::op::v0::Result>(ops[k]) && ops[k]->get_input_size() == 1) {
        const std::string& producer = device[index.at(ops[k]->input_value(0).get_node())];
        if (!producer.empty()) device[k] = producer;
      }
    }
    for (size_t k = 0; k < ops.size(); ++k) {
      if (device[k].empty()) {
        return fail(HSDAG_OV_BAD_ARGUMENT, "node '" + model->names[k] + "' (" + model->types[k] +
                                               ") has no device; HETERO manual mode needs every node placed");
      }
    }
    for (size_t k = 0; k < ops.size(); ++k) ops[k]->get_rt_info()["affinity"] = device[k];
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_model_clear_affinities(hsdag_ov_model* model) {
  if (!model) return fail(HSDAG_OV_BAD_ARGUMENT, "null model");
  return guarded([&] {
    for (const auto& op : model->ops) op->get_rt_info().erase("affinity");
    return HSDAG_OV_OK;
  });
}

hsdag_ov_compiled* hsdag_ov_compile(hsdag_ov_core* core, hsdag_ov_model* model, const char* device,
                                    const char* cache_dir, int profiling) {
  if (!core || !model || !device) {
    last_error = "null core, model or device";
    return nullptr;
  }
  return guarded_ptr<hsdag_ov_compiled>([&] {
    ov::AnyMap config;
    if (profiling) config.emplace(ov::enable_profiling.name(), true);
    return compile_with(core, model, device, config, cache_dir);
  });
}

void hsdag_ov_compiled_free(hsdag_ov_compiled* compiled) {
  try {
    delete compiled;
  } catch (...) {
  }
}

int hsdag_ov_compiled_submodels(hsdag_ov_compiled* compiled, uint64_t* count) {
  if (!compiled || !count) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  if (!compiled->hetero) {
    *count = 1;
    return HSDAG_OV_OK;
  }
  return guarded([&] {
    // Declared (as size_t) in the HETERO plugin's internal header, so read it by name.
    ov::Any v = compiled->compiled.get_property("HETERO_NUMBER_OF_SUBMODELS");
    *count = static_cast<uint64_t>(v.as<size_t>());
    return HSDAG_OV_OK;
  });
}

const char* hsdag_ov_compiled_execution_devices(hsdag_ov_compiled* compiled) {
  return compiled ? compiled->execution_devices.c_str() : "";
}

int hsdag_ov_fill_inputs(hsdag_ov_compiled* compiled, int64_t seed) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  return guarded([&] {
    std::mt19937_64 rng(static_cast<uint64_t>(seed));
    const auto inputs = compiled->compiled.inputs();
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto& port = inputs[i];
      if (port.get_partial_shape().is_dynamic()) {
        std::string name = port.get_names().empty() ? std::to_string(i) : port.get_any_name();
        return fail(HSDAG_OV_BAD_ARGUMENT, "input '" + name + "' has a dynamic shape " +
                                               port.get_partial_shape().to_string() + "; give it a static shape");
      }
      ov::element::Type type = port.get_element_type();
      ov::Tensor t(type, port.get_shape());
      if (type == ov::element::f32) {
        fill_real<float>(t, rng);
      } else if (type == ov::element::f16) {
        fill_real<ov::float16>(t, rng);
      } else if (type == ov::element::bf16) {
        fill_real<ov::bfloat16>(t, rng);
      } else if (type == ov::element::f64) {
        fill_real<double>(t, rng);
      } else if (type == ov::element::i64) {
        fill_int<int64_t>(t, rng, 2);
      } else if (type == ov::element::i32) {
        fill_int<int32_t>(t, rng, 2);
      } else if (type == ov::element::i8) {
        fill_int<int8_t>(t, rng, 2);
      } else if (type == ov::element::u8) {
        fill_int<uint8_t>(t, rng, 2);
      } else if (type == ov::element::boolean) {
        fill_int<char>(t, rng, 2);
      } else {
        std::memset(t.data(), 0, t.get_byte_size());  // other types: zeros are valid data
      }
      compiled->request.set_input_tensor(i, t);
    }
    return HSDAG_OV_OK;
  });
}

int64_t hsdag_ov_input_size(hsdag_ov_compiled* compiled, int i) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  try {
    last_error.clear();
    const auto inputs = compiled->compiled.inputs();
    if (!in_range(i, inputs.size())) return fail(HSDAG_OV_BAD_ARGUMENT, "no input " + std::to_string(i));
    const auto& shape = inputs[i].get_partial_shape();
    if (shape.is_dynamic()) {
      return fail(HSDAG_OV_BAD_ARGUMENT, "input " + std::to_string(i) + " has a dynamic shape " + shape.to_string());
    }
    return static_cast<int64_t>(ov::shape_size(shape.to_shape()));
  } catch (const std::exception& e) {
    return fail(HSDAG_OV_ERROR, e.what());
  } catch (...) {
    return fail(HSDAG_OV_ERROR, "unknown C++ exception in OpenVINO");
  }
}

int hsdag_ov_input_write(hsdag_ov_compiled* compiled, int i, const float* data, int64_t n) {
  if (!compiled || (n > 0 && !data)) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  int64_t expected = hsdag_ov_input_size(compiled, i);
  if (expected < 0) return static_cast<int>(expected);
  if (n != expected) {
    return fail(HSDAG_OV_BAD_ARGUMENT, "input " + std::to_string(i) + " takes " + std::to_string(expected) +
                                           " elements, got " + std::to_string(n));
  }
  return guarded([&] {
    const ov::Output<const ov::Node> port = compiled->compiled.input(static_cast<size_t>(i));
    ov::element::Type type = port.get_element_type();
    ov::Tensor t(type, port.get_shape());
    if (type == ov::element::f32) {
      copy_from_float<float>(t, data);
    } else if (type == ov::element::f16) {
      copy_from_float<ov::float16>(t, data);
    } else if (type == ov::element::bf16) {
      copy_from_float<ov::bfloat16>(t, data);
    } else if (type == ov::element::f64) {
      copy_from_float<double>(t, data);
    } else if (type == ov::element::i64) {
      copy_from_float<int64_t>(t, data);
    } else if (type == ov::element::i32) {
      copy_from_float<int32_t>(t, data);
    } else if (type == ov::element::i8) {
      copy_from_float<int8_t>(t, data);
    } else if (type == ov::element::u8) {
      copy_from_float<uint8_t>(t, data);
    } else if (type == ov::element::boolean) {
      char* p = static_cast<char*>(t.data());
      for (size_t k = 0; k < t.get_size(); ++k) p[k] = data[k] != 0.0f ? 1 : 0;
    } else {
      return fail(HSDAG_OV_BAD_ARGUMENT, "input element type " + type.get_type_name() + " cannot be written from float");
    }
    compiled->request.set_input_tensor(static_cast<size_t>(i), t);
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_infer_timed(hsdag_ov_compiled* compiled, int warmup, int runs, double* samples_ms) {
  if (!compiled || warmup < 0 || runs < 0 || (runs > 0 && !samples_ms)) {
    return fail(HSDAG_OV_BAD_ARGUMENT, "bad arguments to infer_timed");
  }
  return guarded([&] {
    for (int k = 0; k < warmup; ++k) compiled->request.infer();
    for (int k = 0; k < runs; ++k) {
      auto t0 = std::chrono::steady_clock::now();
      compiled->request.infer();
      auto t1 = std::chrono::steady_clock::now();
      samples_ms[k] = std::chrono::duration<double, std::milli>(t1 - t0).count();
    }
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_output_count(hsdag_ov_compiled* compiled) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  return guarded([&] { return static_cast<int>(compiled->compiled.outputs().size()); });
}

int64_t hsdag_ov_output_size(hsdag_ov_compiled* compiled, int i) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  try {
    last_error.clear();
    return static_cast<int64_t>(compiled->request.get_output_tensor(static_cast<size_t>(i)).get_size());
  } catch (const std::exception& e) {
    return fail(HSDAG_OV_ERROR, e.what());
  } catch (...) {
    return fail(HSDAG_OV_ERROR, "unknown C++ exception in OpenVINO");
  }
}

int hsdag_ov_output_read(hsdag_ov_compiled* compiled, int i, float* out, int64_t capacity) {
  if (!compiled || !out) return fail(HSDAG_OV_BAD_ARGUMENT, "null argument");
  return guarded([&] {
    ov::Tensor t = compiled->request.get_output_tensor(static_cast<size_t>(i));
    if (static_cast<int64_t>(t.get_size()) > capacity) return fail(HSDAG_OV_BAD_ARGUMENT, "output buffer too small");
    ov::element::Type type = t.get_element_type();
    if (type == ov::element::f32) {
      copy_as_float<float>(t, out);
    } else if (type == ov::element::f16) {
      copy_as_float<ov::float16>(t, out);
    } else if (type == ov::element::bf16) {
      copy_as_float<ov::bfloat16>(t, out);
    } else if (type == ov::element::f64) {
      copy_as_float<double>(t, out);
    } else if (type == ov::element::i64) {
      copy_as_float<int64_t>(t, out);
    } else if (type == ov::element::i32) {
      copy_as_float<int32_t>(t, out);
    } else if (type == ov::element::i8) {
      copy_as_float<int8_t>(t, out);
    } else if (type == ov::element::u8) {
      copy_as_float<uint8_t>(t, out);
    } else if (type == ov::element::boolean) {
      copy_as_float<char>(t, out);
    } else {
      return fail(HSDAG_OV_BAD_ARGUMENT, "output element type " + type.get_type_name() + " cannot be read as float");
    }
    return HSDAG_OV_OK;
  });
}

int hsdag_ov_profile_collect(hsdag_ov_compiled* compiled) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  return guarded([&] {
    compiled->profile = compiled->request.get_profiling_info();
    return static_cast<int>(compiled->profile.size());
  });
}

const char* hsdag_ov_profile_node_name(hsdag_ov_compiled* compiled, int i) {
  return compiled && in_range(i, compiled->profile.size()) ? compiled->profile[i].node_name.c_str() : "";
}

const char* hsdag_ov_profile_node_type(hsdag_ov_compiled* compiled, int i) {
  return compiled && in_range(i, compiled->profile.size()) ? compiled->profile[i].node_type.c_str() : "";
}

const char* hsdag_ov_profile_exec_type(hsdag_ov_compiled* compiled, int i) {
  return compiled && in_range(i, compiled->profile.size()) ? compiled->profile[i].exec_type.c_str() : "";
}

int hsdag_ov_profile_status(hsdag_ov_compiled* compiled, int i) {
  if (!compiled || !in_range(i, compiled->profile.size())) return fail(HSDAG_OV_BAD_ARGUMENT, "no such record");
  switch (compiled->profile[i].status) {
    case ov::ProfilingInfo::Status::NOT_RUN:
      return HSDAG_OV_NOT_RUN;
    case ov::ProfilingInfo::Status::OPTIMIZED_OUT:
      return HSDAG_OV_OPTIMIZED_OUT;
    default:
      return HSDAG_OV_EXECUTED;
  }
}

int64_t hsdag_ov_profile_real_us(hsdag_ov_compiled* compiled, int i) {
  return compiled && in_range(i, compiled->profile.size()) ? compiled->profile[i].real_time.count() : -1;
}

int64_t hsdag_ov_profile_cpu_us(hsdag_ov_compiled* compiled, int i) {
  return compiled && in_range(i, compiled->profile.size()) ? compiled->profile[i].cpu_time.count() : -1;
}

int hsdag_ov_runtime_collect(hsdag_ov_compiled* compiled) {
  if (!compiled) return fail(HSDAG_OV_BAD_ARGUMENT, "null compiled model");
  return guarded([&] {
    std::vector<std::string> names;
    std::vector<std::string> originals;
    std::shared_ptr<const ov::Model> runtime = compiled->compiled.get_runtime_model();
    for (const auto& node : runtime->get_ordered_ops()) {
      names.push_back(node->get_friendly_name());
      const auto& rt = node->get_rt_info();
      auto it = rt.find("originalLayersNames");  // ov::exec_model_info::ORIGINAL_NAMES (dev API)
      originals.push_back(it != rt.end() && it->second.is<std::string>() ? it->second.as<std::string>() : "");
    }
    compiled->runtime_names = names;
    compiled->runtime_original_names = originals;
    return static_cast<int>(names.size());
  });
}

const char* hsdag_ov_runtime_node_name(hsdag_ov_compiled* compiled, int i) {
  return compiled ? at_or_empty(compiled->runtime_names, i) : "";
}

const char* hsdag_ov_runtime_original_names(hsdag_ov_compiled* compiled, int i) {
  return compiled ? at_or_empty(compiled->runtime_original_names, i) : "";
}

}  // extern "C"

// ---- throughput: several asynchronous infer requests in flight (issue 39; appended) ----
//
// The asynchronous API as the wheel's header declares it (openvino/include/openvino/runtime/
// infer_request.hpp, 2026.4.1): start_async() returns at once; calling any method of a running
// request throws ov::Busy; wait() blocks until the result is available; set_callback(f) calls f
// on success or failure of an asynchronous request, and f must not capture the request itself.
// So the callbacks only push (request index, completion time) to a queue this thread drains; it
// waits on the request (already done: cheap) before starting it again.

#include <condition_variable>
#include <deque>
#include <mutex>
#include <utility>

namespace {

using throughput_clock = std::chrono::steady_clock;

struct completions {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::pair<int, throughput_clock::time_point>> done;
  std::exception_ptr error;
};

// The times of `total` completions of `reqs` kept in flight, in the order they completed; the first
// entry is the start. Rethrows the first request failure once every request has stopped.
std::vector<throughput_clock::time_point> run_closed_loop(std::vector<ov::InferRequest>& reqs, int64_t total) {
  completions q;
  for (size_t k = 0; k < reqs.size(); ++k) {
    completions* qp = &q;
    int index = static_cast<int>(k);
    reqs[k].set_callback([qp, index](std::exception_ptr e) {
      auto now = throughput_clock::now();
      std::lock_guard<std::mutex> lock(qp->mu);
      if (e && !qp->error) qp->error = e;
      qp->done.emplace_back(index, now);
      qp->cv.notify_one();
    });
  }
  std::vector<throughput_clock::time_point> stamps;
  stamps.reserve(static_cast<size_t>(total) + 1);
  stamps.push_back(throughput_clock::now());
  int64_t started = 0;
  int64_t in_flight = 0;
  for (auto& r : reqs) {
    if (started == total) break;
    r.start_async();
    ++started;
    ++in_flight;
  }
  bool failed = false;
  while (in_flight > 0) {
    std::pair<int, throughput_clock::time_point> c;
    {
      std::unique_lock<std::mutex> lock(q.mu);
      q.cv.wait(lock, [&] { return !q.done.empty(); });
      c = q.done.front();
      q.done.pop_front();
      failed = failed || static_cast<bool>(q.error);
    }
    --in_flight;
    stamps.push_back(c.second);
    ov::InferRequest& r = reqs[static_cast<size_t>(c.first)];
    if (!failed) r.wait();  // returns at once; the callback has run, so the request is idle again
    if (!failed && started < total) {
      r.start_async();
      ++started;
      ++in_flight;
    }
  }
  for (auto& r : reqs) {
    try {
      r.wait();
    } catch (...) {
      // the failure is in q.error
    }
    r.set_callback([](std::exception_ptr) {});  // q goes out of scope: no callback may point at it
  }
  if (q.error) std::rethrow_exception(q.error);
  return stamps;
}

}  // namespace

extern "C" {

hsdag_ov_compiled* hsdag_ov_compile_throughput(hsdag_ov_core* core, hsdag_ov_model* model, const char* device,
                                               const char* cache_dir, int requests) {
  if (!core || !model || !device || requests < 1) {
    last_error = "null core, model or device, or fewer than 1 request";
    return nullptr;
  }
  return guarded_ptr<hsdag_ov_compiled>([&] {
    ov::AnyMap config;
    config.emplace(ov::hint::performance_mode.name(), ov::hint::PerformanceMode::THROUGHPUT);
    config.emplace(ov::hint::num_requests.name(), static_cast<uint32_t>(requests));
    return compile_with(core, model, device, config, cache_dir);
  });
}

int hsdag_ov_infer_throughput(hsdag_ov_compiled* compiled, int requests, int warmup, int runs, double* samples_ms) {
  if (!compiled || requests < 1 || warmup < 0 || runs < 0 || (runs > 0 && !samples_ms)) {
    return fail(HSDAG_OV_BAD_ARGUMENT, "bad arguments to infer_throughput");
  }
  return guarded([&] {
    std::vector<ov::InferRequest> reqs;
    const size_t inputs = compiled->compiled.inputs().size();
    for (int k = 0; k < requests; ++k) {
      ov::InferRequest r = compiled->compiled.create_infer_request();
      for (size_t i = 0; i < inputs; ++i) {
        ov::Tensor src = compiled->request.get_input_tensor(i);
        ov::Tensor copy(src.get_element_type(), src.get_shape());
        src.copy_to(copy);
        r.set_input_tensor(i, copy);
      }
      reqs.push_back(std::move(r));
    }
    const int64_t n = requests;
    const int64_t skip = static_cast<int64_t>(warmup) * n;
    auto stamps = run_closed_loop(reqs, skip + static_cast<int64_t>(runs) * n);
    // stamps[0] is the start, stamps[j] the j-th completion: window k spans completions skip+k*n .. skip+(k+1)*n.
    for (int k = 0; k < runs; ++k) {
      auto from = stamps[static_cast<size_t>(skip + k * n)];
      auto to = stamps[static_cast<size_t>(skip + (k + 1) * n)];
      samples_ms[k] = std::chrono::duration<double, std::milli>(to - from).count() / static_cast<double>(n);
    }
    return HSDAG_OV_OK;
  });
}

}  // extern "C"

// ---- the runtime as the oracle of HETERO's sub-model boundaries ----

#include <set>

#include <openvino/op/util/op_types.hpp>

namespace {

// Sub-models of the cut clone: components over uncut input edges that hold a Parameter or a Result.
int count_submodels(const std::shared_ptr<ov::Model>& cut,
                    const std::set<std::pair<const ov::Node*, size_t>>& uncounted) {
  auto ops = cut->get_ordered_ops();
  std::unordered_map<const ov::Node*, size_t> index;
  for (size_t i = 0; i < ops.size(); i++) index.emplace(ops[i].get(), i);
  std::vector<size_t> parent(ops.size());
  for (size_t i = 0; i < parent.size(); i++) parent[i] = i;
  auto find = [&parent](size_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (size_t i = 0; i < ops.size(); i++) {
    for (const auto& in : ops[i]->inputs()) {
      if (uncounted.count({ops[i].get(), in.get_index()})) continue;
      auto it = index.find(in.get_source_output().get_node());
      if (it != index.end()) parent[find(it->second)] = find(i);
    }
  }
  std::set<size_t> roots;
  for (size_t i = 0; i < ops.size(); i++) {
    if (ov::is_type<ov::op::v0::Parameter>(ops[i]) || ov::is_type<ov::op::v0::Result>(ops[i])) roots.insert(find(i));
  }
  return static_cast<int>(roots.size());
}

}  // namespace

int hsdag_ov_model_boundaries(hsdag_ov_model* model, int n, const int32_t* consumer_ops, const int32_t* consumer_ports,
                              int32_t* is_static) {
  if (!model || n < 0 || (n > 0 && (!consumer_ops || !consumer_ports || !is_static))) {
    return fail(HSDAG_OV_BAD_ARGUMENT, "null model or cut arrays");
  }
  return guarded([&] {
    auto clone = model->model->clone();
    auto cops = clone->get_ordered_ops();
    if (cops.size() != model->ops.size()) return fail(HSDAG_OV_ERROR, "the model's clone lists other ops");
    for (size_t i = 0; i < cops.size(); i++) {
      if (cops[i]->get_type_info() != model->ops[i]->get_type_info() ||
          cops[i]->get_friendly_name() != model->names[i]) {
        return fail(HSDAG_OV_ERROR, "the model's clone orders its ops otherwise at " + model->names[i]);
      }
    }
    std::vector<ov::Output<ov::Node>> producer(n);
    for (int k = 0; k < n; k++) {
      if (!in_range(consumer_ops[k], cops.size()) ||
          !in_range(consumer_ports[k], cops[consumer_ops[k]]->get_input_size())) {
        return fail(HSDAG_OV_BAD_ARGUMENT, "cut " + std::to_string(k) + " names no op input");
      }
      producer[k] = cops[consumer_ops[k]]->input(consumer_ports[k]).get_source_output();
    }
    // The collector makes no Parameter for a Constant's output; it is a boundary all the same.
    std::set<std::pair<const ov::Node*, size_t>> uncounted;
    std::map<std::pair<const ov::Node*, size_t>, bool> resulted;
    ov::ParameterVector params;
    ov::ResultVector results;
    for (int k = 0; k < n; k++) {
      auto consumer = cops[consumer_ops[k]];
      const auto& out = producer[k];
      if (ov::op::util::is_constant(out.get_node())) {
        uncounted.insert({consumer.get(), static_cast<size_t>(consumer_ports[k])});
        continue;
      }
      auto param = std::make_shared<ov::op::v0::Parameter>(out.get_element_type(), out.get_partial_shape());
      consumer->input(consumer_ports[k]).replace_source_output(param->output(0));
      params.push_back(param);
      if (!resulted[{out.get_node(), out.get_index()}]) {
        resulted[{out.get_node(), out.get_index()}] = true;
        results.push_back(std::make_shared<ov::op::v0::Result>(out));
      }
    }
    clone->add_parameters(params);
    clone->add_results(results);
    clone->validate_nodes_and_infer_types();
    model->boundary_shapes.assign(n, "");
    for (int k = 0; k < n; k++) {
      const auto shape = producer[k].get_partial_shape();
      is_static[k] = shape.is_static() ? 1 : 0;
      model->boundary_shapes[k] = shape.to_string();
    }
    return count_submodels(clone, uncounted);
  });
}

const char* hsdag_ov_model_boundary_shape(hsdag_ov_model* model, int k) {
  return model && in_range(k, model->boundary_shapes.size()) ? model->boundary_shapes[k].c_str() : "";
}

int hsdag_ov_model_save(hsdag_ov_model* model, const char* xml_path, const char* bin_path) {
  if (!model || !xml_path || !bin_path) return fail(HSDAG_OV_BAD_ARGUMENT, "null model or path");
  return guarded([&] {
    ov::serialize(model->model, std::string(xml_path), std::string(bin_path));
    return HSDAG_OV_OK;
  });
}

// ---- part of a model as a model of its own, for profiling only the ops a profile database lacks ----

hsdag_ov_model* hsdag_ov_model_extract(hsdag_ov_model* model, int n, const int32_t* op_indices) {
  if (!model || n < 0 || (n > 0 && !op_indices)) {
    last_error = "null model or op indices";
    return nullptr;
  }
  return guarded_ptr<hsdag_ov_model>([&]() -> hsdag_ov_model* {
    auto clone = model->model->clone();
    auto cops = clone->get_ordered_ops();
    if (cops.size() != model->ops.size()) throw std::runtime_error("the model's clone lists other ops");
    std::set<const ov::Node*> kept;
    for (int k = 0; k < n; k++) {
      if (!in_range(op_indices[k], cops.size())) throw std::runtime_error("op index out of range");
      const auto& op = cops[op_indices[k]];
      if (cops[op_indices[k]]->get_friendly_name() != model->names[op_indices[k]]) {
        throw std::runtime_error("the model's clone orders its ops otherwise at " + model->names[op_indices[k]]);
      }
      if (ov::op::util::is_constant(op.get()) || ov::is_type<ov::op::v0::Parameter>(op) ||
          ov::is_type<ov::op::v0::Result>(op)) {
        continue;
      }
      kept.insert(op.get());
    }
    if (kept.empty()) throw std::runtime_error("no op to extract");
    ov::ParameterVector params;
    ov::ResultVector results;
    for (const auto& op : cops) {
      if (!kept.count(op.get())) continue;
      // Outputs first: a Result must read the op's output before any input is rewired.
      for (const auto& out : op->outputs()) {
        bool leaves = false;
        for (const auto& target : out.get_target_inputs()) {
          leaves |= !kept.count(target.get_node());
        }
        if (leaves) results.push_back(std::make_shared<ov::op::v0::Result>(out));
      }
    }
    std::map<std::pair<const ov::Node*, size_t>, std::shared_ptr<ov::op::v0::Parameter>> made;
    for (const auto& op : cops) {
      if (!kept.count(op.get())) continue;
      for (auto& in : op->inputs()) {
        auto src = in.get_source_output();
        if (kept.count(src.get_node()) || ov::op::util::is_constant(src.get_node())) continue;
        auto key = std::make_pair(static_cast<const ov::Node*>(src.get_node()), src.get_index());
        auto it = made.find(key);
        if (it == made.end()) {
          auto param = std::make_shared<ov::op::v0::Parameter>(src.get_element_type(), src.get_partial_shape());
          it = made.emplace(key, param).first;
          params.push_back(param);
        }
        in.replace_source_output(it->second->output(0));
      }
    }
    auto m = std::make_unique<hsdag_ov_model>();
    m->model = std::make_shared<ov::Model>(results, params, clone->get_friendly_name() + "_part");
    m->model->validate_nodes_and_infer_types();
    refresh_ops(m.get());
    return m.release();
  });
}
