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
  // The long names (no dashes) of the profile options the user gave, on the command line or
  // through --config: input_config's export shows what was set, as AIPerf's exclude_unset dump.
  std::vector<std::string> given_options;
  // A fixed schedule without --request-count: the input file's records (non-blank lines), which
  // AIPerf's converter sets as the profiling phase's request count.
  std::optional<uint64_t> fixed_schedule_records;

  // Timing mode label used in the artifact directory ("concurrency8", ...).
  std::string stimulus() const;
};

nlohmann::json to_json(const RunConfig& config);
RunConfig run_config_from_json(const nlohmann::json& j);

// AIPerf 0.13's input_config export (input_config_export.cpp): its benchmark configuration's
// sections with what the user set, without secrets or internals.
// keep_nulls: the server-metrics export's dump keeps a set field whose value is None.
nlohmann::ordered_json input_config_json(const RunConfig& config, bool keep_nulls = false);

}  // namespace aiperf::config
