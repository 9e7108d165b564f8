// Extraction of content and usage from one decoded OpenAI-style JSON response (a stream
// event or a whole body), spec §5.8. Private to the endpoints library.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

enum class ResponseKind { kChat, kCompletions };

// Appends a content response stamped `perf_ns` when the object carries text or reasoning,
// and records its usage block. Returns an error (ValueError) for an unexpected `object`.
std::optional<proto::ErrorDetails> extract_content(ResponseKind kind, const nlohmann::json& j,
                                                   int64_t perf_ns, ParseResult& out);

// The same from the JSON text, without decoding it into a tree (the hot path: one call per
// stream event). Returns false, with `out` untouched, for anything it leaves to the tree
// path: text that is not a well-formed object it reads in full, and every error.
bool scan_content(ResponseKind kind, std::string_view text, int64_t perf_ns, ParseResult& out);

}  // namespace aiperf::endpoints
