// RunConfig: the one validated, immutable description of a benchmark run. Built by the CLI,
// shipped to every service as JSON in the configure command; no service reads argv or the
// environment for benchmark settings. Field names follow AIPerf's input_config sections; each
// section lives in its own header with its JSON field list.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/accuracy_config.h"
#include "config/endpoint_config.h"
#include "config/input_config.h"
#include "config/load_config.h"
#include "config/network_latency_config.h"
#include "config/output_config.h"
#include "config/service_config.h"
#include "config/telemetry_config.h"

namespace aiperf::config {

struct RunConfig {
  EndpointConfig endpoint;
  InputConfig input;
  OutputConfig output;
  TokenizerConfig tokenizer;
  LoadConfig loadgen;
  ServiceConfig service;
  TelemetryConfig telemetry;
  NetworkLatencyConfig network_latency;
  AccuracyConfig accuracy;  // --accuracy-*
  std::string benchmark_id;

  // Timing mode label used in the artifact directory ("concurrency8", ...).
  std::string stimulus() const;
};

nlohmann::json to_json(const RunConfig& config);
RunConfig run_config_from_json(const nlohmann::json& j);

// AIPerf's input_config export: the user-facing sections without secrets or internals.
nlohmann::ordered_json input_config_json(const RunConfig& config);

}  // namespace aiperf::config
