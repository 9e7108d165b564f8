// Content of `template` endpoint responses (spec §5.4): the response_field selection, or
// auto-detection of embeddings, rankings, then text. Private to the endpoints library.
#pragma once
#include <cstdint>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"
#include "endpoints/json_path.h"

namespace aiperf::endpoints {

// `field` null = auto-detect. A selected string is text; a list of numbers or of number
// lists is embeddings; a list of objects is rankings (both without text). A response whose
// field is missing or empty yields nothing, so a record of such responses is an error, as in
// AIPerf (no silent fallback to another field).
void extract_template_content(const nlohmann::json& j, int64_t perf_ns, const JsonPath* field, ParseResult& out);

// A body or event that is not JSON: its text is the content.
void extract_template_text(std::string_view text, int64_t perf_ns, ParseResult& out);

}  // namespace aiperf::endpoints
