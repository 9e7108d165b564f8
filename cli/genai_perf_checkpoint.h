// GenAI-Perf 0.0.16's checkpoint (--enable-checkpointing, --checkpoint-dir): what lets a killed
// `analyze` sweep (or a `profile`) resume without repeating the points already measured.
//
// The file is <checkpoint dir>/checkpoint.json (default ./checkpoint), written as Python's
// json.dump writes it (python_json.h) after every point: {"Results": {"run_configs": [...]}},
// best first (highest average request throughput). Each run config is
//   {"name": "<model>_run_config_<id>",
//    "genai_perf_config": {"_parameters": {"endpoint": {...}, "input": {...}, "tokenizer": {...}
//                                          [, "num_dataset_entries" | "input_sequence_length": N]}},
//    "perf_analyzer_config": {"_model_name": M, "_parameters": {"concurrency": N | ...},
//                             "_cli_args": ["perf_analyzer", "-m", M, "--async", ...]},
//    "measurement": {"_gpu_metrics": {}, "_model_config_measurements":
//                    {M: {"_perf_metrics": {"<metric>_<stat>": ["<metric>_<stat>",
//                                                               {"_value": V, "_timestamp": 0}]}}}}}
// with the time metrics' values in ns (GenAI-Perf records them before scaling to ms).
//
// A point is done when a run config has its representation: perf_analyzer's command line less
// the options that vary between runs of the same point (-u, -i, --input-data,
// --profile-export-file, ...) joined by spaces, then the GenAI-Perf parameters (the endpoint
// without its URLs, the input and tokenizer sections, the swept GenAI-Perf parameter), as
// GenAI-Perf compares them. Ours builds both exactly as GenAI-Perf does, so a checkpoint either
// tool wrote resumes in the other.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {

// GenAI-Perf's objective parameters of one run: those perf_analyzer takes (concurrency,
// request_rate, session_concurrency: `pa`) and those GenAI-Perf applies to its inputs
// (num_dataset_entries, input_sequence_length: `gap`), each {name: value}.
struct PointParameters {
  nlohmann::ordered_json pa = nlohmann::ordered_json::object();
  nlohmann::ordered_json gap = nlohmann::ordered_json::object();
};

// A profile's parameters: its stimulus (session concurrency, else request rate as a float,
// else concurrency, 1 by default).
PointParameters profile_parameters(const ProfileArgs& a);
// An analyze point's: the swept value under the sweep's name (an integer), in `pa` or `gap`.
PointParameters sweep_parameters(const std::string& sweep_type, int64_t value);

// perf_analyzer's command line as GenAI-Perf 0.0.16 builds it for this run (`a`: the run's
// arguments; `dir`: its artifact directory), "perf_analyzer" first.
std::vector<std::string> pa_cli_args(const ProfileArgs& a, const PointParameters& p, const std::string& dir);

// GenAI-Perf's `_parameters` of the run: input_config's endpoint (without server_metrics_urls
// and url), input and tokenizer, then the `gap` parameters.
nlohmann::ordered_json gap_parameters(const nlohmann::ordered_json& input_config, const PointParameters& p);

// The representation GenAI-Perf matches checkpointed runs by (see the file comment).
std::string representation(const std::vector<std::string>& cli_args, const nlohmann::ordered_json& gap_params);

// The measurement block from a run's statistics (profile_export_genai_perf.json's metrics, in
// ms): every statistic but the unit, the time metrics in ns.
nlohmann::ordered_json measurement_json(const nlohmann::ordered_json& stats, const std::string& model);
// The statistics (ms) back from a measurement block: {metric: {stat: value}}.
nlohmann::ordered_json stats_from_measurement(const nlohmann::ordered_json& measurement, const std::string& model);

// The value perf_analyzer loads a run config at (--concurrency-range, else --request-rate-range,
// its integer part; 1 when neither), as analyze's CSV shows it.
int64_t inference_value(const nlohmann::ordered_json& run_config);
// Whether the run config's load is a request rate.
bool inference_is_request_rate(const nlohmann::ordered_json& run_config);

// The checkpoint file and its run configs.
class Checkpoint {
 public:
  // Reads <dir>/checkpoint.json if it exists. Throws GenAiPerfOptionError naming the file when it
  // is not a checkpoint (unreadable JSON, no Results.run_configs list).
  explicit Checkpoint(std::string dir);

  // The run config with this representation, or nullptr.
  const nlohmann::ordered_json* find(const std::string& representation) const;
  // GenAI-Perf's name for a new run config: <model>_run_config_<1 + the largest id so far>.
  std::string next_name(const std::string& model) const;
  // Adds a run config and keeps the list best first (stable).
  void add(nlohmann::ordered_json run_config);
  // Writes the file (creating the directory), replacing it atomically. Throws std::runtime_error.
  void save() const;

  const std::vector<nlohmann::ordered_json>& run_configs() const { return run_configs_; }
  std::string path() const;

 private:
  std::string dir_;
  std::vector<nlohmann::ordered_json> run_configs_;
};

// A run config as the checkpoint holds it (see the file comment).
nlohmann::ordered_json run_config_json(const std::string& name, const nlohmann::ordered_json& gap_params,
                                       const std::string& model, const PointParameters& p,
                                       const std::vector<std::string>& cli_args,
                                       const nlohmann::ordered_json& measurement);

}  // namespace aiperf::cli::genai_perf
