// KServe v2 tensors between their JSON form and the gRPC messages (kserve.proto).
//
// aiperf builds, stores and exports a KServe request as the protocol's JSON inference request
// ({"inputs": [{"name", "datatype", "shape", "data"}], "parameters"?, "outputs"?, "id"?}), the
// body KServe's HTTP binding takes at /v2/models/<model>/infer, and records each response as the
// JSON inference response ({"model_name", "model_version", "id"?, "parameters"?, "outputs":
// [{"name", "datatype", "shape", "data"}]}). Over gRPC these are converted to ModelInferRequest
// and from ModelInferResponse here, so payloads, exports and response parsing are the same
// whatever the transport.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "kserve.pb.h"

namespace aiperf::kserve {

// The model (and version, empty if none) named by a /v2/models/<name>[/versions/<v>][/...] path.
struct ModelRef {
  std::string name;
  std::string version;
};
std::optional<ModelRef> model_from_path(std::string_view path);

// Fills `out` from a JSON inference request: typed contents (bool, int, int64, uint, uint64,
// fp32, fp64, bytes) chosen by each input's datatype, `data` flattened row-major and checked
// against the shape's element count; request parameters (bool, integer, string, number) and
// requested outputs carried over. Throws std::invalid_argument saying what is wrong (not JSON,
// no inputs, an unknown or unsupported datatype such as FP16, a count that does not match).
void request_from_json(std::string_view json, const ModelRef& model, inference::ModelInferRequest& out);

// The JSON inference response for `response`: outputs from their typed contents, or from
// raw_output_contents (BYTES elements 4-byte little-endian length-prefixed, numbers
// little-endian) when the server sent those, as Triton does. Text that is not UTF-8 is replaced
// (U+FFFD), never an exception.
std::string response_to_json(const inference::ModelInferResponse& response);

// True for the last response of a decoupled stream (parameter triton_final_response = true).
bool is_final_response(const inference::ModelInferResponse& response);

}  // namespace aiperf::kserve
