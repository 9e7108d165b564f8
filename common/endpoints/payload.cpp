// build_payload (spec §5.4) for chat and completions. Keys are emitted in AIPerf's
// insertion order (ordered_json), so request bodies and inputs.json match it byte for byte.
#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

namespace {

using ordered_json = nlohmann::ordered_json;

// One chat message per turn: a single text is sent as plain content with its name (AIPerf
// names synthetic texts "text"); anything else as a list of text parts, empties skipped.
ordered_json chat_message(const proto::Turn& turn) {
  ordered_json message;
  message["role"] = turn.role().empty() ? "user" : turn.role();
  if (turn.texts_size() == 1 && turn.texts(0).contents_size() == 1) {
    const proto::Text& text = turn.texts(0);
    if (!text.name().empty()) message["name"] = text.name();
    message["content"] = text.contents(0);
    return message;
  }
  ordered_json parts = ordered_json::array();
  for (const proto::Text& text : turn.texts()) {
    for (const std::string& content : text.contents()) {
      if (content.empty()) continue;
      parts.push_back({{"type", "text"}, {"text", content}});
    }
  }
  message["content"] = std::move(parts);
  return message;
}

ordered_json chat_payload(const std::vector<const proto::Turn*>& turns,
                          const std::string& system_message,
                          const std::string& user_context_message) {
  ordered_json messages = ordered_json::array();
  if (!system_message.empty()) {
    messages.push_back({{"role", "system"}, {"content", system_message}});
  }
  if (!user_context_message.empty()) {
    messages.push_back({{"role", "user"}, {"content", user_context_message}});
  }
  for (const proto::Turn* turn : turns) messages.push_back(chat_message(*turn));

  ordered_json payload;
  payload["messages"] = std::move(messages);
  return payload;
}

ordered_json completions_payload(const proto::Turn& turn) {
  ordered_json prompt = ordered_json::array();
  for (const proto::Text& text : turn.texts()) {
    for (const std::string& content : text.contents()) {
      if (!content.empty()) prompt.push_back(content);
    }
  }
  ordered_json payload;
  payload["prompt"] = std::move(prompt);
  return payload;
}

}  // namespace

std::string build_payload(const EndpointInfo& info, const PayloadOptions& options,
                          const std::vector<const proto::Turn*>& turns,
                          const std::string& system_message,
                          const std::string& user_context_message) {
  static const proto::Turn kEmptyTurn;
  const proto::Turn& last = turns.empty() ? kEmptyTurn : *turns.back();
  const bool chat = info.type == "chat";

  ordered_json payload = chat ? chat_payload(turns, system_message, user_context_message)
                              : completions_payload(last);
  payload["model"] = last.model().empty() ? options.model : last.model();
  payload["stream"] = options.streaming;
  if (last.has_max_tokens()) {
    const bool legacy = !chat || options.use_legacy_max_tokens;
    payload[legacy ? "max_tokens" : "max_completion_tokens"] = last.max_tokens();
  }
  // --extra-inputs override everything above (Python's dict.update: existing keys keep
  // their position, new keys are appended).
  if (options.extra_inputs && options.extra_inputs->is_object()) {
    for (const auto& [key, value] : options.extra_inputs->items()) payload[key] = value;
  }
  if (options.streaming && options.use_server_token_count) {
    ordered_json& stream_options = payload["stream_options"];
    if (!stream_options.is_object()) stream_options = ordered_json::object();
    stream_options["include_usage"] = true;
  }
  return payload.dump();
}

}  // namespace aiperf::endpoints
