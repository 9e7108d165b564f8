// Reads a response's `usage` block in every vendor spelling AIPerf 0.13's Usage accepts
// (usage_fields.h: OpenAI chat/completions and Responses, Anthropic, DeepSeek, Gemini's
// usageMetadata, Bedrock, Cohere's meta/tokens envelopes, Mistral, watsonx), with the small JSON
// helpers the response parsers share. Used by the endpoints library and `aiperf chat`.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "endpoint.h"
#include "metrics/parsed_record.h"

namespace aiperf::endpoints {

// `usage` must be an object.
metrics::Usage read_usage_block(const nlohmann::json& usage);

// Sets out.usage from `holder`'s "usage" member when that is a non-empty object.
void read_usage_member(const nlohmann::json& holder, ParseResult& out);

// j[key] when it is a number (truncated to an integer), else nullopt (missing, null, other types).
std::optional<int64_t> int_member(const nlohmann::json& j, const char* key);

// The error a response parser reports for a body of the wrong shape (AIPerf raises ValueError).
proto::ErrorDetails value_error(std::string message);

}  // namespace aiperf::endpoints
