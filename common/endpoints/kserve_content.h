// Content of kserve responses (KServe v2 JSON inference responses, kserve/tensors.h). Private to
// the endpoints library.
#pragma once
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// The elements of the output tensor named text_output (what GenAI-Perf reads), joined: one
// content response when not empty. A streamed response carries the next piece.
void extract_kserve_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

}  // namespace aiperf::endpoints
