// kserve (KServe v2 / Triton inference, GenAI-Perf's --service-kind triton --endpoint-type kserve
// with its default tensorrtllm backend): the turn as the protocol's JSON inference request.
#include <string_view>

#include "payload_builders.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::ordered_json;

// GenAI-Perf's DEFAULT_TENSORRTLLM_MAX_TOKENS: TensorRT-LLM's ensemble requires max_tokens.
constexpr int kDefaultMaxTokens = 256;

// Datatypes of TensorRT-LLM's ensemble inputs, so `--extra-inputs temperature:1` goes out as
// the FP32 the model declares rather than the INT32 its JSON value suggests.
std::string_view known_datatype(std::string_view name) {
  static constexpr std::pair<std::string_view, std::string_view> kKnown[] = {{"max_tokens", "INT32"},
                                                                             {"min_length", "INT32"},
                                                                             {"beam_width", "INT32"},
                                                                             {"top_k", "INT32"},
                                                                             {"end_id", "INT32"},
                                                                             {"pad_id", "INT32"},
                                                                             {"top_p", "FP32"},
                                                                             {"temperature", "FP32"},
                                                                             {"length_penalty", "FP32"},
                                                                             {"repetition_penalty", "FP32"},
                                                                             {"presence_penalty", "FP32"},
                                                                             {"frequency_penalty", "FP32"},
                                                                             {"random_seed", "UINT64"},
                                                                             {"stream", "BOOL"},
                                                                             {"return_log_probs", "BOOL"},
                                                                             {"exclude_input_in_output", "BOOL"}};
  for (const auto& known : kKnown) {
    if (known.first == name) return known.second;
  }
  return {};
}

// A [1, 1] tensor (batch of one, one element) holding `value`; its datatype by name, else by
// the JSON type (boolean BOOL, integer INT32 or INT64 when larger, number FP32, else BYTES of
// the text or of the JSON).
ordered_json tensor(const std::string& name, const nlohmann::json& value) {
  std::string datatype(known_datatype(name));
  if (datatype.empty()) {
    if (value.is_boolean()) {
      datatype = "BOOL";
    } else if (value.is_number_integer()) {
      const bool fits = value.is_number_unsigned()
                            ? value.get<uint64_t>() <= INT32_MAX
                            : value.get<int64_t>() >= INT32_MIN && value.get<int64_t>() <= INT32_MAX;
      datatype = fits ? "INT32" : "INT64";
    } else if (value.is_number()) {
      datatype = "FP32";
    } else {
      datatype = "BYTES";
    }
  }
  ordered_json data = value;
  if (datatype == "BYTES" && !value.is_string()) data = value.dump();
  return ordered_json{{"name", name}, {"datatype", datatype}, {"shape", {1, 1}}, {"data", ordered_json::array({data})}};
}

void set_input(ordered_json& inputs, const std::string& name, const nlohmann::json& value) {
  for (ordered_json& input : inputs) {
    if (input["name"] == name) {
      input = tensor(name, value);
      return;
    }
  }
  inputs.push_back(tensor(name, value));
}

}  // namespace

ordered_json kserve_payload(const proto::Turn& turn, bool streaming, const nlohmann::json* extra_inputs, bool vllm) {
  std::string text_input;
  for (const std::string& t : turn_texts(turn)) text_input += (text_input.empty() ? "" : " ") + t;
  ordered_json inputs = ordered_json::array();
  inputs.push_back(tensor("text_input", text_input));
  if (vllm) {
    // GenAI-Perf's vLLM converter: the prompt left out of the answer, the limit as a string.
    inputs.push_back(tensor("exclude_input_in_output", true));
    if (streaming) inputs.push_back(tensor("stream", true));
    if (turn.has_max_tokens())
      inputs.push_back(
          tensor("sampling_parameters", ordered_json{{"max_tokens", std::to_string(turn.max_tokens())}}.dump()));
  } else {
    inputs.push_back(tensor("max_tokens", turn.has_max_tokens() ? turn.max_tokens() : kDefaultMaxTokens));
    if (streaming) inputs.push_back(tensor("stream", true));
  }
  // As GenAI-Perf: every extra input is one more tensor (replacing one of the same name).
  if (extra_inputs && extra_inputs->is_object()) {
    for (auto it = extra_inputs->begin(); it != extra_inputs->end(); ++it) set_input(inputs, it.key(), it.value());
  }
  return ordered_json{{"inputs", std::move(inputs)}};
}

}  // namespace aiperf::endpoints
