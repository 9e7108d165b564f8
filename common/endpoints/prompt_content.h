// Content of the types whose requests prompt_payloads.cpp builds: image_generation,
// solido_rag and Triton generate. Private to the endpoints library.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// image_generation: a streaming event's `b64_json`, or the `data[]` items of a whole
// response. An image counts as output when it carries a non-empty b64_json or url; such a
// response is a content response without text (image generation produces no tokens).
// `usage` is recorded.
void extract_image_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

// solido_rag: the `content` string (every streamed event or the whole body); `sources` are
// not used by any metric.
void extract_solido_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

// generate (Triton): `text_output`; each streamed event carries the next piece.
void extract_triton_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

}  // namespace aiperf::endpoints
