// The JSON bodies of the live API (field names follow AIPerf's API responses):
//   /api/progress  {"phases": {"warmup"|"profiling": {...counts, rates, ETA...}},
//                   "system_state", "results_exported", "workers": {...}}
//   /api/metrics   {"aiperf_version", "benchmark_id", "model", "endpoint_type", "streaming",
//                   "concurrency"?, "request_rate"?, "metrics": {tag: {header, unit, avg, ...}}}
//   /api/results   {"status": "running"|"complete"|"cancelled", "results": null | {...}}
//   /api/workers   {"workers": {id: {...}}}
#pragma once
#include <cstdint>

#include <nlohmann/json.hpp>

#include "config/run_config.h"
#include "ui/run_state.h"

namespace aiperf::controller::api {

// One metric as AIPerf's MetricResult JSON without its tag: header, unit, the stats present
// (avg, min, max, p1..p99, std, sum) and count.
nlohmann::ordered_json metric_json(const proto::MetricResult& m);

// `now_wall_ns` dates the rates of phases still running; `now_steady_ns` the heartbeat ages.
nlohmann::ordered_json progress_json(const ui::RunState& state, int64_t now_wall_ns, int64_t now_steady_ns);
nlohmann::ordered_json metrics_json(const ui::RunState& state, const config::RunConfig& config);
nlohmann::ordered_json results_json(const ui::RunState& state);
nlohmann::ordered_json workers_json(const ui::RunState& state, int64_t now_steady_ns);

// AIPerf's controller states for our stages: registering -> initializing, configuring ->
// configuring, waiting_remote -> ready, running -> profiling, collecting -> processing,
// done -> stopping.
const char* system_state(const std::string& stage);

}  // namespace aiperf::controller::api
