// RunConfig: the one validated, immutable description of a benchmark run. Built by the CLI,
// shipped to every service as JSON in the configure command; no service reads argv or the
// environment for benchmark settings. Field names follow AIPerf's input_config sections.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::config {

struct EndpointConfig {
  std::vector<std::string> model_names;
  std::string model_selection_strategy = "round_robin";
  std::string custom_endpoint;                  // --endpoint
  std::string type = "chat";                    // --endpoint-type
  bool streaming = false;
  std::vector<std::string> urls{"localhost:8000"};
  double timeout_seconds = 21600;               // --request-timeout-seconds
  std::string api_key;                          // never exported
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;
  std::string connection_reuse_strategy = "pooled";
};

struct InputConfig {
  nlohmann::json extra_inputs = nlohmann::json::object();
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<uint64_t> random_seed;
  double isl_mean = 550;                        // --synthetic-input-tokens-mean
  double isl_stddev = 0;
  std::optional<double> osl_mean;               // --output-tokens-mean (unset: no max tokens)
  double osl_stddev = 0;
  uint32_t batch_size = 1;                      // --batch-size-text
  uint32_t num_dataset_entries = 100;
  double turn_mean = 1, turn_stddev = 0;
  double turn_delay_mean = 0, turn_delay_stddev = 0, turn_delay_ratio = 1;
};

struct OutputConfig {
  std::string artifact_dir = "artifacts";       // resolved run directory (absolute)
  bool artifact_dir_explicit = false;
  std::string profile_export_prefix;            // empty = AIPerf default names
  std::string export_level = "records";         // summary | records | raw
};

struct TokenizerConfig {
  std::string name;                             // as given (default: first model)
  std::string revision = "main";
  bool trust_remote_code = false;
  std::string resolved_path;                    // local path every service loads
};

struct LoadConfig {
  std::optional<uint32_t> concurrency;
  std::optional<uint64_t> request_count;
  std::optional<uint64_t> warmup_request_count;
  std::optional<double> benchmark_duration;
  double benchmark_grace_period = 30;
  std::optional<double> request_rate;
  std::string arrival_pattern = "concurrency_burst";
  std::optional<uint64_t> conversation_num;
};

struct ServiceConfig {
  uint32_t workers = 1;                         // resolved local worker count
  uint32_t workers_remote = 0;                  // remote workers to wait for
  uint32_t record_processors = 1;
  std::string zmq_host;                         // empty = ipc
  std::string zmq_ipc_path;
  uint16_t zmq_base_port = 5660;
  std::string log_level = "INFO";
  std::string ui_type = "none";
  std::optional<double> fail_on_error_rate;     // percent
  std::string cli_command;                      // reconstructed command line
};

struct RunConfig {
  EndpointConfig endpoint;
  InputConfig input;
  OutputConfig output;
  TokenizerConfig tokenizer;
  LoadConfig loadgen;
  ServiceConfig service;
  std::string benchmark_id;

  // Timing mode label used in the artifact directory ("concurrency8", ...).
  std::string stimulus() const;
};

nlohmann::json to_json(const RunConfig& config);
RunConfig run_config_from_json(const nlohmann::json& j);

// AIPerf's input_config export: the user-facing sections without secrets or internals.
nlohmann::ordered_json input_config_json(const RunConfig& config);

}  // namespace aiperf::config
