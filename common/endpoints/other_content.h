// Content extraction for the non-OpenAI-chat endpoint types (spec §5.4, §5.8): embeddings,
// rankings and TGI generate. Private to the endpoints library.
#pragma once
#include <cstdint>
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

enum class OtherKind { embeddings, rankings, tgi_generate };

// The kind parse_response uses for `info`, nullopt for chat/completions.
std::optional<OtherKind> other_kind(const EndpointInfo& info);

// Embeddings and rankings yield one content response without text when the result list is
// non-empty (they produce no tokens); TGI yields token.text of a stream event, else
// generated_text. Usage blocks are recorded. Returns a ValueError for an unexpected shape.
std::optional<proto::ErrorDetails> extract_other_content(OtherKind kind, const nlohmann::json& j, int64_t perf_ns,
                                                         ParseResult& out);

}  // namespace aiperf::endpoints
