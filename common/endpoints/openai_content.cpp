#include "endpoints/openai_content.h"

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

const json* member(const json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string_view string_member(const json* j, const char* key) {
  if (!j) return {};
  const json* v = member(*j, key);
  return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
}

std::optional<int64_t> int_member(const json& j, const char* key) {
  const json* v = member(j, key);
  if (!v || !v->is_number()) return std::nullopt;
  return v->get<int64_t>();
}

metrics::Usage read_usage(const json& u) {
  metrics::Usage usage;
  usage.prompt_tokens = int_member(u, "prompt_tokens");
  usage.completion_tokens = int_member(u, "completion_tokens");
  usage.total_tokens = int_member(u, "total_tokens");
  if (const json* details = member(u, "completion_tokens_details")) {
    usage.reasoning_tokens = int_member(*details, "reasoning_tokens");
  }
  return usage;
}

proto::ErrorDetails value_error(std::string message) {
  proto::ErrorDetails e;
  e.set_type("ValueError");
  e.set_message(std::move(message));
  return e;
}

}  // namespace

std::optional<proto::ErrorDetails> extract_content(ResponseKind kind, const json& j,
                                                   int64_t perf_ns, ParseResult& out) {
  if (j.is_null()) return std::nullopt;  // "data: null" carries nothing
  if (!j.is_object()) return value_error("Expected a JSON object, got: " + j.dump());

  const json* choices = member(j, "choices");
  const json* choice = choices && choices->is_array() && !choices->empty() ? &(*choices)[0] : nullptr;
  const std::string_view object = string_member(&j, "object");

  // Which part of choices[0] holds the content; a missing `object` is inferred from it.
  const json* part = nullptr;
  std::string_view text;
  std::string_view reasoning;
  if (kind == ResponseKind::kChat) {
    if (object == "chat.completion.chunk") {
      part = choice ? member(*choice, "delta") : nullptr;
    } else if (object == "chat.completion") {
      part = choice ? member(*choice, "message") : nullptr;
    } else if (object.empty()) {
      part = choice ? member(*choice, "delta") : nullptr;
      if (!part && choice) part = member(*choice, "message");
    } else {
      return value_error("Invalid OpenAI chat object type: " + std::string(object));
    }
    text = string_member(part, "content");
    reasoning = string_member(part, "reasoning_content");
    if (reasoning.empty()) reasoning = string_member(part, "reasoning");
  } else {
    if (!object.empty() && object != "text_completion" && object != "completion") {
      return value_error("Invalid OpenAI completions object type: " + std::string(object));
    }
    text = string_member(choice, "text");
  }

  if (const json* usage = member(j, "usage"); usage && usage->is_object()) {
    out.usage = read_usage(*usage);
  }
  if (!text.empty() || !reasoning.empty()) {
    out.responses.push_back(
        metrics::ContentResponse{perf_ns, std::string(text), std::string(reasoning)});
  }
  return std::nullopt;
}

}  // namespace aiperf::endpoints
