// KServe v2: the kserve endpoint's request body, its conversion to the gRPC ModelInferRequest
// (exact tensors), and gRPC responses back to the JSON the response parser reads.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../endpoints/endpoint_test_util.h"
#include "kserve/grpc_client.h"
#include "kserve/tensors.h"

namespace aiperf::kserve {
namespace {

using endpoints::test::build;
using endpoints::test::record;

proto::Turn turn(std::vector<std::string> texts, std::optional<int> max_tokens) {
  proto::Turn t;
  auto* text = t.add_texts();
  for (auto& s : texts) text->add_contents(std::move(s));
  if (max_tokens) t.set_max_tokens(*max_tokens);
  return t;
}

// BYTES elements as Triton puts them in raw contents: 4-byte little-endian length, then bytes.
std::string raw_bytes(const std::vector<std::string>& elements) {
  std::string out;
  for (const std::string& e : elements) {
    for (int b = 0; b < 4; ++b) out += static_cast<char>((e.size() >> (8 * b)) & 0xff);
    out += e;
  }
  return out;
}

TEST_CASE("kserve payload: text_input, max_tokens (256 by default), stream, extras as [1,1] tensors") {
  const proto::Turn t = turn({"one", "two"}, 12);
  CHECK(build("kserve", {&t}) ==
        R"({"inputs":[{"name":"text_input","datatype":"BYTES","shape":[1,1],"data":["one two"]},)"
        R"({"name":"max_tokens","datatype":"INT32","shape":[1,1],"data":[12]}]})");
  const proto::Turn no_max = turn({"hi"}, std::nullopt);
  // TensorRT-LLM's known inputs keep their declared types (temperature 1 is FP32, not INT32);
  // other extras are typed by their JSON value; a given max_tokens replaces the turn's.
  const nlohmann::json extras = {{"temperature", 1}, {"ignore_eos", true}, {"max_tokens", 7}, {"tag", "x"}};
  CHECK(build("kserve", {&no_max}, true, &extras) ==
        R"({"inputs":[{"name":"text_input","datatype":"BYTES","shape":[1,1],"data":["hi"]},)"
        R"({"name":"max_tokens","datatype":"INT32","shape":[1,1],"data":[7]},)"
        R"({"name":"stream","datatype":"BOOL","shape":[1,1],"data":[true]},)"
        R"({"name":"ignore_eos","datatype":"BOOL","shape":[1,1],"data":[true]},)"
        R"({"name":"tag","datatype":"BYTES","shape":[1,1],"data":["x"]},)"
        R"({"name":"temperature","datatype":"FP32","shape":[1,1],"data":[1]}]})");
  CHECK(nlohmann::json::parse(build("kserve", {&no_max}))["inputs"][1]["data"][0] == 256);
}

TEST_CASE("kserve request JSON to ModelInferRequest: typed contents per datatype, shape, parameters") {
  const std::string body = R"({"id": "r1", "parameters": {"priority": 2, "sequence_start": true},
    "inputs": [{"name": "text_input", "datatype": "BYTES", "shape": [1, 1], "data": ["hello"]},
               {"name": "max_tokens", "datatype": "INT32", "shape": [1, 1], "data": [[5]]},
               {"name": "stream", "datatype": "BOOL", "shape": [1], "data": [true]},
               {"name": "temperature", "datatype": "FP32", "shape": [2], "data": [0.5, 1]},
               {"name": "random_seed", "datatype": "UINT64", "shape": [1], "data": [18446744073709551615]}],
    "outputs": [{"name": "text_output"}]})";
  inference::ModelInferRequest req;
  request_from_json(body, ModelRef{"llama", "3"}, req);
  CHECK(req.model_name() == "llama");
  CHECK(req.model_version() == "3");
  CHECK(req.id() == "r1");
  CHECK(req.parameters().at("priority").int64_param() == 2);
  CHECK(req.parameters().at("sequence_start").bool_param());
  REQUIRE(req.inputs_size() == 5);
  CHECK(req.inputs(0).name() == "text_input");
  CHECK(req.inputs(0).datatype() == "BYTES");
  CHECK(std::vector<int64_t>(req.inputs(0).shape().begin(), req.inputs(0).shape().end()) == std::vector<int64_t>{1, 1});
  REQUIRE(req.inputs(0).contents().bytes_contents_size() == 1);
  CHECK(req.inputs(0).contents().bytes_contents(0) == "hello");
  REQUIRE(req.inputs(1).contents().int_contents_size() == 1);  // nested data is flattened
  CHECK(req.inputs(1).contents().int_contents(0) == 5);
  REQUIRE(req.inputs(2).contents().bool_contents_size() == 1);
  CHECK(req.inputs(2).contents().bool_contents(0));
  REQUIRE(req.inputs(3).contents().fp32_contents_size() == 2);
  CHECK(req.inputs(3).contents().fp32_contents(0) == 0.5f);
  CHECK(req.inputs(3).contents().fp32_contents(1) == 1.0f);
  CHECK(req.inputs(4).contents().uint64_contents(0) == UINT64_MAX);
  CHECK(req.raw_input_contents_size() == 0);  // typed contents only
  REQUIRE(req.outputs_size() == 1);
  CHECK(req.outputs(0).name() == "text_output");
}

TEST_CASE("kserve request JSON: what a server would refuse is refused before sending") {
  inference::ModelInferRequest req;
  const ModelRef m{"m", ""};
  CHECK_THROWS_WITH(request_from_json("[1]", m, req), "KServe request: not a JSON object");
  CHECK_THROWS_WITH(request_from_json(R"({"inputs": []})", m, req), "KServe request: no \"inputs\"");
  CHECK_THROWS_WITH(
      request_from_json(R"({"inputs": [{"name": "x", "datatype": "FP16", "shape": [1], "data": [1]}]})", m, req),
      "KServe input 'x': unsupported datatype 'FP16'");
  CHECK_THROWS_WITH(
      request_from_json(R"({"inputs": [{"name": "x", "datatype": "INT32", "shape": [1, 2], "data": [1]}]})", m, req),
      "KServe input 'x': shape holds 2 elements, data 1");
  CHECK_THROWS_WITH(
      request_from_json(R"({"inputs": [{"name": "x", "datatype": "INT32", "shape": [1], "data": ["a"]}]})", m, req),
      "KServe input 'x': data must be integers, got \"a\"");
}

TEST_CASE("kserve model path: name and optional version from /v2/models/<name>[/versions/<v>]/infer") {
  CHECK(model_from_path("/v2/models/llama/infer")->name == "llama");
  CHECK(model_from_path("/v2/models/llama/infer")->version.empty());
  CHECK(model_from_path("/v2/models/ens/versions/2/infer")->version == "2");
  CHECK_FALSE(model_from_path("/v1/chat/completions"));
  CHECK_FALSE(model_from_path("/v2/models//infer"));
  CHECK(is_grpc_url("grpc://h:1/v2/models/m/infer"));
  CHECK(is_grpc_url("grpcs://h:1"));
  CHECK_FALSE(is_grpc_url("http://h:1"));
}

TEST_CASE("kserve response to JSON: raw BYTES (Triton's way), raw numbers, typed contents, final flag") {
  inference::ModelInferResponse resp;
  resp.set_model_name("m");
  resp.set_model_version("1");
  auto* text = resp.add_outputs();
  text->set_name("text_output");
  text->set_datatype("BYTES");
  text->add_shape(2);
  resp.add_raw_output_contents(raw_bytes({" a", "b\xff"}));  // not UTF-8: replaced, no exception
  auto* ids = resp.add_outputs();
  ids->set_name("ids");
  ids->set_datatype("INT32");
  ids->add_shape(2);
  resp.add_raw_output_contents(std::string("\x01\x00\x00\x00\xfe\xff\xff\xff", 8));  // 1, -2
  (*resp.mutable_parameters())["triton_final_response"].set_bool_param(true);
  CHECK(is_final_response(resp));
  CHECK(response_to_json(resp) ==
        R"({"model_name":"m","model_version":"1","parameters":{"triton_final_response":true},"outputs":[)"
        R"({"name":"text_output","datatype":"BYTES","shape":[2],"data":[" a","b)"
        "\xef\xbf\xbd"
        R"("]},)"
        R"({"name":"ids","datatype":"INT32","shape":[2],"data":[1,-2]}]})");

  inference::ModelInferResponse typed;
  auto* out = typed.add_outputs();
  out->set_name("text_output");
  out->set_datatype("BYTES");
  out->add_shape(1);
  out->mutable_contents()->add_bytes_contents("typed");
  CHECK_FALSE(is_final_response(typed));
  CHECK(nlohmann::json::parse(response_to_json(typed))["outputs"][0]["data"] == nlohmann::json::array({"typed"}));
}

TEST_CASE("kserve gRPC record: each chunk one response, text_output per chunk at its own time") {
  const endpoints::EndpointInfo& ep = *endpoints::find_endpoint("kserve");
  auto piece = [](const std::string& s) {
    return R"({"model_name":"m","outputs":[{"name":"text_output","datatype":"BYTES","shape":[1],"data":[")" + s +
           R"("]},{"name":"other","datatype":"BYTES","shape":[1],"data":["no"]}]})";
  };
  const endpoints::ParseResult r = endpoints::parse_response(
      ep, record("application/grpc", {{100, piece(" a")}, {250, piece(" b")}, {400, piece(" c")}}));
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 3);
  CHECK(r.responses[0].perf_ns == 100);
  CHECK(r.responses[0].text == " a");
  CHECK(r.responses[1].perf_ns == 250);
  CHECK(r.responses[2].text == " c");
  // No text_output at all: no content, as for any endpoint.
  const endpoints::ParseResult none = endpoints::parse_response(
      ep,
      record("application/grpc", {{5, R"({"outputs":[{"name":"x","datatype":"BYTES","shape":[1],"data":["y"]}]})"}}));
  REQUIRE(none.error);
  CHECK(none.error->type() == "InvalidInferenceResultError");
}

}  // namespace
}  // namespace aiperf::kserve
