// OpenAI Responses API request body (spec §5.5).
#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

using nlohmann::ordered_json;

namespace {

ordered_json text_part(const std::string& type, const std::string& text) {
  return {{"type", type}, {"text", text}};
}

// One input item per turn: texts, then images, then audio; empty contents skipped. Video is
// not accepted by the Responses API and is left out.
ordered_json input_item(const proto::Turn& turn) {
  const std::string role = turn.role().empty() ? "user" : turn.role();
  const std::string text_type = role == "assistant" ? "output_text" : "input_text";
  ordered_json content = ordered_json::array();
  for (const proto::Text& batch : turn.texts())
    for (const std::string& c : batch.contents())
      if (!c.empty()) content.push_back(text_part(text_type, c));
  for (const proto::Text& batch : turn.images())
    for (const std::string& c : batch.contents())
      if (!c.empty()) content.push_back({{"type", "input_image"}, {"image_url", c}});
  for (const proto::Text& batch : turn.audios()) {
    for (const std::string& c : batch.contents()) {
      if (c.empty()) continue;
      const size_t comma = c.find(',');
      const std::string format = comma == std::string::npos ? "wav" : c.substr(0, comma);
      const std::string data = comma == std::string::npos ? c : c.substr(comma + 1);
      content.push_back({{"type", "input_audio"}, {"input_audio", {{"data", data}, {"format", format}}}});
    }
  }
  ordered_json item;
  item["role"] = role;
  item["content"] = std::move(content);
  return item;
}

}  // namespace

ordered_json responses_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                               bool streaming, const std::string& system_message,
                               const std::string& user_context_message) {
  static const proto::Turn kEmptyTurn;
  const proto::Turn& last = turns.empty() ? kEmptyTurn : *turns.back();
  ordered_json input = ordered_json::array();
  if (!last.raw_messages().empty()) {
    input = ordered_json::parse(last.raw_messages());  // a trace's conversation, verbatim
  } else {
    if (!user_context_message.empty()) {
      ordered_json item;
      item["role"] = "user";
      item["content"] = ordered_json::array({text_part("input_text", user_context_message)});
      input.push_back(std::move(item));
    }
    for (const proto::Turn* turn : turns) input.push_back(input_item(*turn));
  }
  ordered_json payload;
  payload["input"] = std::move(input);
  payload["model"] = model;
  payload["stream"] = streaming;
  // The system prompt is the top-level "instructions", not an input item.
  if (!system_message.empty()) payload["instructions"] = system_message;
  if (last.has_max_tokens()) payload["max_output_tokens"] = last.max_tokens();
  if (!last.raw_tools().empty()) payload["tools"] = ordered_json::parse(last.raw_tools());
  return payload;
}

}  // namespace aiperf::endpoints
