// Content of Anthropic Messages API responses (AIPerf 0.13's `messages` endpoint type): the
// non-streaming `message` object and the streaming events. Private to the endpoints library.
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// Per record: every usage key seen so far, with its first value. Streaming splits usage
// between message_start (input_tokens, cache counts) and message_delta (output_tokens); as in
// AIPerf, the last usage block is completed with the keys only earlier blocks carried.
struct MessagesStreamState {
  nlohmann::ordered_json seen_usage = nlohmann::ordered_json::object();
};

// `j` is parsed in key order so a tool_use input is re-serialised as the server wrote it.
// Non-streaming (`type: "message"`): text blocks are text, thinking blocks reasoning, tool_use
// blocks `name` + compact `input` JSON (counted as text after the prose); precedence
// thinking > tool_use > text, one response. Streaming: content_block_delta text_delta -> text,
// thinking_delta -> reasoning, input_json_delta -> text; message_start and message_delta carry
// usage; ping, content_block_start/stop, message_stop, signature deltas and a `type: "error"`
// payload without an SSE `event: error` line carry no content (an `event: error` line fails
// the record before this is reached).
void extract_messages_content(const nlohmann::ordered_json& j, int64_t perf_ns, MessagesStreamState& state,
                              ParseResult& out);

}  // namespace aiperf::endpoints
