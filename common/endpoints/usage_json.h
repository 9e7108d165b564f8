// Reads a response's `usage` block in both OpenAI spellings: chat/completions
// (prompt_tokens, completion_tokens, completion_tokens_details) and Responses/Images API
// (input_tokens, output_tokens, output_tokens_details); Anthropic's cache_read_input_tokens and
// cache_creation_input_tokens are added to input_tokens. Private to the endpoints library.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "metrics/parsed_record.h"

namespace aiperf::endpoints {

// `usage` must be an object.
metrics::Usage read_usage_block(const nlohmann::json& usage);

}  // namespace aiperf::endpoints
