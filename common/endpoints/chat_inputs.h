// The chat view of a request body for --apply-chat-template, as AIPerf's payload extraction
// builds it: the role/content messages a server's chat template renders, and the tool text the
// template does not see (tool schemas, Responses function_call items), counted beside it.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

struct ChatInputs {
  // [{"role", "content" (the message's text parts concatenated; media parts dropped),
  //   "tool_calls" (when the item replays a non-empty list)}], in payload order.
  nlohmann::ordered_json messages = nlohmann::ordered_json::array();
  // name/description/compact JSON parameters of each `tools` schema (nested under "function"
  // and at the top level), then name/arguments of function_call and output of
  // function_call_output items; non-empty strings only.
  std::vector<std::string> tool_texts;
};

// nullopt unless `payload` is a JSON object with a non-empty "messages" or "input" array holding
// at least one object with a "role" or "type" key (chat and Responses shapes; completions,
// embeddings and other flat bodies are not chat-shaped).
std::optional<ChatInputs> chat_inputs_of(std::string_view payload);

}  // namespace aiperf::endpoints
