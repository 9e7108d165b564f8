// vLLM's per-request speculative-decoding stats (`metrics.speculative_decoding` at the root of a
// chat/completions body or of the stream's trailing usage chunk, served with
// --per-request-spec-decode-metrics), read into metrics::SpecDecode the way AIPerf 0.13's vLLM
// adapter and SpecDecodeAcceptanceRecord accept them: a payload of another shape, or whose counts
// contradict each other, gives no record. Private to the endpoints library.
#pragma once
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "endpoint.h"
#include "metrics/parsed_record.h"

namespace aiperf::endpoints {

// The record of one payload (an object); nullopt when it lacks vLLM's signature keys
// (acceptance_histogram, num_spec_steps) or fails the record's checks.
std::optional<metrics::SpecDecode> adapt_vllm_spec_decode(const nlohmann::json& payload);

// Reads `j`'s metrics.speculative_decoding when it is a non-empty object: counts it in
// out.spec_decode_payloads and keeps its record (or none) in out.spec_decode.
void read_spec_decode_stats(const nlohmann::json& j, ParseResult& out);

}  // namespace aiperf::endpoints
