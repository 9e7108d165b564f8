// The token and time counters of known inference servers, read from the --server-metrics scrapes
// for the Client vs Server section (export/client_server.h): llama.cpp (llamacpp:*), vLLM and
// SGLang (vllm:* / sglang:* prompt_tokens, generation_tokens, cached tokens, finished requests:
// vllm:request_success, sglang:num_requests).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "export/client_server.h"
#include "server_metrics.h"

namespace aiperf::telemetry {

// Each counter's increase over [start_ns, end_ns] (as server_metrics_export.json's "total"),
// summed over its series (endpoints, label sets), for the first known server whose prompt or
// generation token counter was scraped; nullopt when none was. A family is matched with or
// without its "_total" suffix. llama.cpp's prompt_tokens_total excludes cached tokens, so its
// prompt_tokens is prompt_tokens_total + prompt_tokens_cached_total.
std::optional<exporting::ServerCounterTotals> known_counter_totals(const std::vector<ServerSeries>& series,
                                                                   int64_t start_ns, int64_t end_ns);

}  // namespace aiperf::telemetry
