#include "kserve/tensors.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace aiperf::kserve {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;
using Contents = inference::InferTensorContents;

enum class Element { kBool, kInt32, kInt64, kUint32, kUint64, kFp32, kFp64, kBytes };

// The contents field a datatype's elements go in, and their raw width (0: BYTES).
struct TypeInfo {
  Element element;
  size_t raw_width;
};

std::optional<TypeInfo> type_info(std::string_view datatype) {
  if (datatype == "BOOL") return TypeInfo{Element::kBool, 1};
  if (datatype == "INT8") return TypeInfo{Element::kInt32, 1};
  if (datatype == "INT16") return TypeInfo{Element::kInt32, 2};
  if (datatype == "INT32") return TypeInfo{Element::kInt32, 4};
  if (datatype == "INT64") return TypeInfo{Element::kInt64, 8};
  if (datatype == "UINT8") return TypeInfo{Element::kUint32, 1};
  if (datatype == "UINT16") return TypeInfo{Element::kUint32, 2};
  if (datatype == "UINT32") return TypeInfo{Element::kUint32, 4};
  if (datatype == "UINT64") return TypeInfo{Element::kUint64, 8};
  if (datatype == "FP32") return TypeInfo{Element::kFp32, 4};
  if (datatype == "FP64") return TypeInfo{Element::kFp64, 8};
  if (datatype == "BYTES") return TypeInfo{Element::kBytes, 0};
  return std::nullopt;  // FP16, BF16: only raw contents carry them
}

void flatten(const json& data, std::vector<const json*>& out) {
  if (!data.is_array()) return out.push_back(&data);
  for (const json& item : data) flatten(item, out);
}

std::invalid_argument bad(const std::string& input, const std::string& why) {
  return std::invalid_argument("KServe input '" + input + "': " + why);
}

void add_element(const json& v, Element element, const std::string& name, Contents& c) {
  switch (element) {
    case Element::kBool:
      if (!v.is_boolean()) throw bad(name, "BOOL data must be true or false, got " + v.dump());
      return c.add_bool_contents(v.get<bool>());
    case Element::kBytes:
      if (!v.is_string()) throw bad(name, "BYTES data must be strings, got " + v.dump());
      return c.add_bytes_contents(v.get_ref<const std::string&>());
    case Element::kFp32:
    case Element::kFp64:
      if (!v.is_number()) throw bad(name, "data must be numbers, got " + v.dump());
      return element == Element::kFp32 ? c.add_fp32_contents(v.get<float>()) : c.add_fp64_contents(v.get<double>());
    default:
      break;
  }
  if (!v.is_number_integer()) throw bad(name, "data must be integers, got " + v.dump());
  switch (element) {
    case Element::kInt32:
      return c.add_int_contents(v.get<int32_t>());
    case Element::kInt64:
      return c.add_int64_contents(v.get<int64_t>());
    case Element::kUint32:
      return c.add_uint_contents(v.get<uint32_t>());
    default:
      return c.add_uint64_contents(v.get<uint64_t>());
  }
}

void set_parameter(const json& value, const std::string& key, inference::InferParameter& p) {
  if (value.is_boolean()) {
    p.set_bool_param(value.get<bool>());
  } else if (value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX) {
    p.set_uint64_param(value.get<uint64_t>());
  } else if (value.is_number_integer()) {
    p.set_int64_param(value.get<int64_t>());
  } else if (value.is_number()) {
    p.set_double_param(value.get<double>());
  } else if (value.is_string()) {
    p.set_string_param(value.get<std::string>());
  } else {
    throw std::invalid_argument("KServe parameter '" + key + "' must be a boolean, number or string");
  }
}

ordered_json parameter_json(const inference::InferParameter& p) {
  switch (p.parameter_choice_case()) {
    case inference::InferParameter::kBoolParam:
      return p.bool_param();
    case inference::InferParameter::kInt64Param:
      return p.int64_param();
    case inference::InferParameter::kStringParam:
      return p.string_param();
    case inference::InferParameter::kDoubleParam:
      return p.double_param();
    case inference::InferParameter::kUint64Param:
      return p.uint64_param();
    default:
      return nullptr;
  }
}

template <typename Map>
ordered_json parameters_json(const Map& params) {
  ordered_json out = ordered_json::object();
  for (const auto& kv : params) out[kv.first] = parameter_json(kv.second);
  return out;
}

template <typename T>
T read_le(const char* p, size_t width) {
  uint64_t bits = 0;
  for (size_t i = 0; i < width; ++i) bits |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  if constexpr (std::is_same_v<T, float>) {
    const auto narrow = static_cast<uint32_t>(bits);
    float f;
    std::memcpy(&f, &narrow, sizeof f);
    return f;
  } else if constexpr (std::is_same_v<T, double>) {
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  } else {
    return static_cast<T>(bits);
  }
}

// Sign-extends a `width`-byte little-endian integer.
int64_t read_signed(const char* p, size_t width) {
  const uint64_t bits = read_le<uint64_t>(p, width);
  const unsigned shift = 64 - 8 * static_cast<unsigned>(width);
  return static_cast<int64_t>(bits << shift) >> shift;
}

// raw_output_contents of one output as JSON elements; nullopt for an undecodable datatype.
std::optional<ordered_json> raw_data(std::string_view datatype, const std::string& raw) {
  ordered_json data = ordered_json::array();
  if (datatype == "BYTES") {
    for (size_t at = 0; at + 4 <= raw.size();) {
      const auto len = read_le<uint32_t>(raw.data() + at, 4);
      at += 4;
      if (len > raw.size() - at) break;  // truncated: keep what is whole
      data.push_back(raw.substr(at, len));
      at += len;
    }
    return data;
  }
  const std::optional<TypeInfo> info = type_info(datatype);
  if (!info) return std::nullopt;
  const size_t w = info->raw_width;
  for (size_t at = 0; at + w <= raw.size(); at += w) {
    const char* p = raw.data() + at;
    switch (info->element) {
      case Element::kBool:
        data.push_back(*p != 0);
        break;
      case Element::kInt32:
      case Element::kInt64:
        data.push_back(read_signed(p, w));
        break;
      case Element::kUint32:
      case Element::kUint64:
        data.push_back(read_le<uint64_t>(p, w));
        break;
      case Element::kFp32:
        data.push_back(read_le<float>(p, w));
        break;
      case Element::kFp64:
        data.push_back(read_le<double>(p, w));
        break;
      case Element::kBytes:
        break;
    }
  }
  return data;
}

ordered_json typed_data(const Contents& c) {
  ordered_json data = ordered_json::array();
  for (bool v : c.bool_contents()) data.push_back(v);
  for (int32_t v : c.int_contents()) data.push_back(v);
  for (int64_t v : c.int64_contents()) data.push_back(v);
  for (uint32_t v : c.uint_contents()) data.push_back(v);
  for (uint64_t v : c.uint64_contents()) data.push_back(v);
  for (float v : c.fp32_contents()) data.push_back(v);
  for (double v : c.fp64_contents()) data.push_back(v);
  for (const std::string& v : c.bytes_contents()) data.push_back(v);
  return data;
}

}  // namespace

std::optional<ModelRef> model_from_path(std::string_view path) {
  constexpr std::string_view kPrefix = "/v2/models/";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  path.remove_prefix(kPrefix.size());
  ModelRef ref;
  ref.name = std::string(path.substr(0, path.find('/')));
  if (ref.name.empty()) return std::nullopt;
  path.remove_prefix(std::min(path.size(), ref.name.size() + 1));
  if (path.starts_with("versions/")) {
    path.remove_prefix(9);
    ref.version = std::string(path.substr(0, path.find('/')));
  }
  return ref;
}

void request_from_json(std::string_view text, const ModelRef& model, inference::ModelInferRequest& out) {
  const json body = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) throw std::invalid_argument("KServe request: not a JSON object");
  const auto inputs = body.find("inputs");
  if (inputs == body.end() || !inputs->is_array() || inputs->empty())
    throw std::invalid_argument("KServe request: no \"inputs\"");
  out.Clear();
  out.set_model_name(model.name);
  out.set_model_version(model.version);
  if (auto id = body.find("id"); id != body.end() && id->is_string()) out.set_id(id->get<std::string>());
  if (auto params = body.find("parameters"); params != body.end() && params->is_object()) {
    for (const auto& [key, value] : params->items()) set_parameter(value, key, (*out.mutable_parameters())[key]);
  }
  std::vector<const json*> elements;
  for (const json& input : *inputs) {
    if (!input.is_object() || !input.contains("name") || !input["name"].is_string())
      throw std::invalid_argument("KServe request: an input without a name");
    const std::string& name = input["name"].get_ref<const std::string&>();
    const std::string datatype = input.value("datatype", "");
    const std::optional<TypeInfo> info = type_info(datatype);
    if (!info) throw bad(name, "unsupported datatype '" + datatype + "'");
    auto* tensor = out.add_inputs();
    tensor->set_name(name);
    tensor->set_datatype(datatype);
    int64_t count = 1;
    if (auto shape = input.find("shape"); shape != input.end() && shape->is_array()) {
      for (const json& d : *shape) {
        if (!d.is_number_integer() || d.get<int64_t>() < 0) throw bad(name, "shape must hold non-negative integers");
        tensor->add_shape(d.get<int64_t>());
        count *= d.get<int64_t>();
      }
    } else {
      throw bad(name, "no shape");
    }
    elements.clear();
    if (auto data = input.find("data"); data != input.end()) flatten(*data, elements);
    if (static_cast<int64_t>(elements.size()) != count)
      throw bad(name, "shape holds " + std::to_string(count) + " elements, data " + std::to_string(elements.size()));
    Contents* contents = tensor->mutable_contents();
    for (const json* e : elements) add_element(*e, info->element, name, *contents);
    if (auto params = input.find("parameters"); params != input.end() && params->is_object()) {
      for (const auto& [key, value] : params->items()) set_parameter(value, key, (*tensor->mutable_parameters())[key]);
    }
  }
  if (auto outputs = body.find("outputs"); outputs != body.end() && outputs->is_array()) {
    for (const json& o : *outputs) {
      if (o.is_object() && o.contains("name") && o["name"].is_string())
        out.add_outputs()->set_name(o["name"].get<std::string>());
    }
  }
}

std::string response_to_json(const inference::ModelInferResponse& response) {
  ordered_json out = ordered_json::object();
  out["model_name"] = response.model_name();
  out["model_version"] = response.model_version();
  if (!response.id().empty()) out["id"] = response.id();
  if (!response.parameters().empty()) out["parameters"] = parameters_json(response.parameters());
  ordered_json outputs = ordered_json::array();
  for (int i = 0; i < response.outputs_size(); ++i) {
    const auto& tensor = response.outputs(i);
    ordered_json o = {{"name", tensor.name()}, {"datatype", tensor.datatype()}, {"shape", ordered_json::array()}};
    for (int64_t d : tensor.shape()) o["shape"].push_back(d);
    if (!tensor.parameters().empty()) o["parameters"] = parameters_json(tensor.parameters());
    if (i < response.raw_output_contents_size()) {
      if (auto data = raw_data(tensor.datatype(), response.raw_output_contents(i))) o["data"] = std::move(*data);
    } else {
      o["data"] = typed_data(tensor.contents());
    }
    outputs.push_back(std::move(o));
  }
  out["outputs"] = std::move(outputs);
  return out.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

bool is_final_response(const inference::ModelInferResponse& response) {
  const auto it = response.parameters().find("triton_final_response");
  return it != response.parameters().end() &&
         it->second.parameter_choice_case() == inference::InferParameter::kBoolParam && it->second.bool_param();
}

}  // namespace aiperf::kserve
