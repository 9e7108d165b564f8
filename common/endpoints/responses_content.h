// Content of OpenAI Responses API responses (spec §5.5): streaming events and the
// non-streaming `response` object. Private to the endpoints library.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// Per record: which (output_index, content_index) parts already streamed text deltas, so
// their `response.output_text.done` (the whole text again) is not counted twice.
struct ResponsesStreamState {
  std::set<std::pair<int64_t, int64_t>> streamed_parts;
};

// Streaming: output_text.delta -> text, reasoning_text.delta -> reasoning,
// function_call_arguments.delta -> text (generated tokens), output_text.done -> its text only
// when no delta carried that part (else an empty response keeps the timing), completed ->
// usage. Non-streaming (`object: "response"`): output[] reasoning summaries, message
// output_text and function calls (precedence reasoning > message > function call), else
// `output_text`; plus usage.
void extract_responses_content(const nlohmann::json& j, int64_t perf_ns, ResponsesStreamState& state,
                               ParseResult& out);

}  // namespace aiperf::endpoints
