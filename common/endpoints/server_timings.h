// Reads llama.cpp's `timings` object, the server's own account of one request (prefill and
// decode times and token counts), from a chat or completions response document. Private to
// the endpoints library.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// If `doc` is an object with a `timings` object, replaces out.server_timings with what it holds
// (members that are not numbers stay unset); otherwise leaves `out` unchanged.
void read_server_timings(const nlohmann::json& doc, ParseResult& out);

}  // namespace aiperf::endpoints
