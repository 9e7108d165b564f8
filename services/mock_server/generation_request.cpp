#include "generation_request.h"

#include <nlohmann/json.hpp>
#include <optional>

#include "token_budget.h"

namespace aiperf::mock {
namespace {

using nlohmann::json;

void tally_chat(const json& body, PromptTally& tally) {
  const auto messages = body.find("messages");
  if (messages == body.end() || !messages->is_array()) throw BadRequest{"'messages' must be an array"};
  for (const json& message : *messages) {
    if (!message.is_object() || message.value("role", "") != "user") continue;
    const auto content = message.find("content");
    if (content == message.end()) continue;
    if (content->is_string()) {
      tally.add(content->get_ref<const std::string&>());
    } else if (content->is_array()) {
      for (const json& part : *content) {
        if (part.is_object() && part.value("type", "") == "text")
          tally.add(part.value("text", std::string()));
      }
    }
  }
}

void tally_completions(const json& body, PromptTally& tally) {
  const auto prompt = body.find("prompt");
  if (prompt == body.end()) throw BadRequest{"'prompt' is required"};
  if (prompt->is_string()) {
    tally.add(prompt->get_ref<const std::string&>());
  } else if (prompt->is_array()) {
    for (const json& item : *prompt)
      if (item.is_string()) tally.add(item.get_ref<const std::string&>());
  } else {
    throw BadRequest{"'prompt' must be a string or a list of strings"};
  }
}

std::optional<int> optional_int(const json& body, const char* key, int minimum) {
  const auto it = body.find(key);
  if (it == body.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer()) throw BadRequest{std::string("'") + key + "' must be an integer"};
  const auto value = it->get<int64_t>();
  if (value < minimum || value > 1'000'000) throw BadRequest{std::string("'") + key + "' is out of range"};
  return static_cast<int>(value);
}

bool optional_bool(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

GenerationRequest parse(Api api, const json& body, bool tgi_stream) {
  if (!body.is_object()) throw BadRequest{"request body must be a JSON object"};
  PromptTally tally;
  OutputRequest output;
  if (api == Api::tgi_generate) {
    const auto inputs = body.find("inputs");
    if (inputs == body.end() || !inputs->is_string()) throw BadRequest{"'inputs' must be a string"};
    tally.add(inputs->get_ref<const std::string&>());
    static const json kNoParameters = json::object();
    const auto params = body.find("parameters");
    const json& p = params != body.end() && params->is_object() ? *params : kNoParameters;
    output.max_tokens = optional_int(p, "max_new_tokens", 1);
    output.min_tokens = optional_int(p, "min_tokens", 0);
    output.ignore_eos = optional_bool(p, "ignore_eos");
  } else if (api == Api::chat) {
    tally_chat(body, tally);
    output.max_tokens = optional_int(body, "max_completion_tokens", 1);
    if (!output.max_tokens) output.max_tokens = optional_int(body, "max_tokens", 1);
  } else {
    tally_completions(body, tally);
    output.max_tokens = optional_int(body, "max_tokens", 1);
  }
  if (api != Api::tgi_generate) {
    output.min_tokens = optional_int(body, "min_tokens", 0);
    output.ignore_eos = optional_bool(body, "ignore_eos");
  }

  GenerationRequest request;
  request.api = api;
  const auto model = body.find("model");
  request.model_json = model != body.end() && model->is_string() ? model->dump() : "\"mock-model\"";
  request.stream = api == Api::tgi_generate ? tgi_stream : optional_bool(body, "stream");
  const auto stream_options = body.find("stream_options");
  request.include_usage = stream_options != body.end() && stream_options->is_object() &&
                          optional_bool(*stream_options, "include_usage");
  request.prompt_tokens = tally.tokens();
  request.prompt_hash = tally.hash();
  const OutputPlan plan = plan_output(output, tally.tokens(), tally.hash());
  request.output_tokens = plan.tokens;
  request.hit_limit = plan.hit_limit;
  return request;
}

}  // namespace

std::variant<GenerationRequest, BadRequest> parse_generation_request(Api api, std::string_view body, bool stream) {
  json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return BadRequest{"request body is not valid JSON"};
  try {
    return parse(api, parsed, stream);
  } catch (const BadRequest& bad) {
    return bad;
  } catch (const json::exception& e) {  // a field of the wrong type, e.g. "role": 3
    return BadRequest{e.what()};
  }
}

}  // namespace aiperf::mock
