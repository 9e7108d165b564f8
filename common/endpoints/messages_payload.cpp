// Anthropic Messages API request body (AIPerf 0.13's `messages` endpoint type).
#include <stdexcept>

#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

using nlohmann::ordered_json;

namespace {

// A data URI becomes a base64 source with its media type (image/png when it names none);
// anything else is a remote URL source.
ordered_json image_block(const std::string& image) {
  if (image.rfind("data:", 0) == 0) {
    const size_t comma = image.find(',');
    const std::string header = image.substr(5, comma == std::string::npos ? std::string::npos : comma - 5);
    std::string media_type = header.substr(0, header.find(';'));
    if (media_type.empty()) media_type = "image/png";
    const std::string data = comma == std::string::npos ? std::string() : image.substr(comma + 1);
    return {{"type", "image"}, {"source", {{"type", "base64"}, {"media_type", media_type}, {"data", data}}}};
  }
  return {{"type", "image"}, {"source", {{"type", "url"}, {"url", image}}}};
}

bool has_content(const google::protobuf::RepeatedPtrField<proto::Text>& batches) {
  for (const proto::Text& batch : batches)
    for (const std::string& c : batch.contents())
      if (!c.empty()) return true;
  return false;
}

// One message per turn: a single text without media is the plain string content; otherwise
// text blocks then image blocks (empties skipped), "" when nothing is left. The API takes no
// audio or video, so a turn carrying them is refused before anything is sent.
ordered_json message_for(const proto::Turn& turn) {
  if (has_content(turn.audios()))
    throw std::invalid_argument(
        "Anthropic Messages API does not support audio input. Use a different endpoint, or remove audio "
        "content from the turn.");
  if (has_content(turn.videos()))
    throw std::invalid_argument(
        "Anthropic Messages API does not support video input. Use a different endpoint, or remove video "
        "content from the turn.");
  ordered_json message;
  message["role"] = turn.role().empty() ? "user" : turn.role();
  const bool media = turn.images_size() > 0 || turn.audios_size() > 0 || turn.videos_size() > 0;
  if (turn.texts_size() == 1 && turn.texts(0).contents_size() == 1 && !media) {
    message["content"] = turn.texts(0).contents(0);
    return message;
  }
  ordered_json blocks = ordered_json::array();
  for (const proto::Text& batch : turn.texts())
    for (const std::string& c : batch.contents())
      if (!c.empty()) blocks.push_back({{"type", "text"}, {"text", c}});
  for (const proto::Text& batch : turn.images())
    for (const std::string& c : batch.contents())
      if (!c.empty()) blocks.push_back(image_block(c));
  message["content"] = blocks.empty() ? ordered_json("") : std::move(blocks);
  return message;
}

}  // namespace

ordered_json messages_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                              bool streaming, const std::string& system_message,
                              const std::string& user_context_message) {
  if (turns.empty()) throw std::invalid_argument("Anthropic Messages endpoint requires at least one turn.");
  const proto::Turn& last = *turns.back();
  ordered_json messages = ordered_json::array();
  if (!user_context_message.empty()) messages.push_back({{"role", "user"}, {"content", user_context_message}});
  if (!last.raw_messages().empty()) {
    for (auto& m : ordered_json::parse(last.raw_messages())) messages.push_back(std::move(m));  // a trace's conversation
  } else {
    for (const proto::Turn* turn : turns) messages.push_back(message_for(*turn));
  }
  ordered_json payload;
  payload["model"] = model;
  payload["messages"] = std::move(messages);
  // The API requires max_tokens; AIPerf sends 1024 when the turn sets none.
  payload["max_tokens"] = last.has_max_tokens() ? last.max_tokens() : 1024;
  // Clients omit `stream` on non-streaming requests.
  if (streaming) payload["stream"] = true;
  // The system prompt is the top-level `system`, not a message.
  if (!system_message.empty()) payload["system"] = system_message;
  if (!last.raw_tools().empty()) payload["tools"] = ordered_json::parse(last.raw_tools());
  return payload;
}

}  // namespace aiperf::endpoints
