// The mock server's Prometheus pages besides its own counters: vLLM-format server metrics
// (/metrics also carries them, /vllm/metrics only them) and the fake DCGM exporters
// (/dcgm1/metrics, /dcgm2/metrics). All values come from the traffic actually served.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "metrics.h"
#include "usage_script.h"

namespace aiperf::mock {

struct ServerState;
class EngineDriver;

// vLLM's metric names and types over the server's counters: requests answered 200 by the
// generation routes, prompt/generation tokens, running requests, TTFT/ITL/e2e histograms.
// With the engine model (--engine-slots), `engine` gives running/waiting and the KV-cache use
// (running / slots).
std::string render_vllm_metrics(const Metrics& metrics, const EngineDriver* engine = nullptr);

// SGLang's speculative-decoding gauges (sglang:spec_accept_rate, sglang:spec_accept_length) for
// --spec-decode, labelled model_name="mock" on two tensor-parallel ranks; "" without it.
std::string render_sglang_spec_metrics(const UsageScript& script);

// Whether `path` is one of the metrics pages (so the router sends it to metrics_page()).
bool is_metrics_path(std::string_view path);

// Body for a metrics path; nullopt for a DCGM instance that does not exist.
std::optional<std::string> metrics_page(ServerState& state, std::string_view target);

}  // namespace aiperf::mock
