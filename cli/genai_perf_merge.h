// `genai-perf process-export-files`' data, as GenAI-Perf 0.0.16 computes it: the per-run export
// pairs of an input directory, merged into one perf_analyzer export, and the statistics of the
// whole. Reads and computes only; the command (genai_perf_process.h) writes.
//
// Each subdirectory of the input directory holding <name>.json (perf_analyzer's
// profile_export.json) and <name>_genai_perf.json is one run. The merged export is the first
// run's, its first experiment's requests followed by every other run's; the statistics are
// GenAI-Perf's LLM statistics over the merged requests (tokens counted again with the runs'
// tokenizer), except request_throughput and output_token_throughput: the sums of the runs' averages.
// The first run's input_config gives the model, endpoint, load, input (goodput) and tokenizer.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_metrics.h"
#include "genai_perf_process_args.h"

namespace aiperf::cli::genai_perf {

class MergeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ExportPair {
  std::filesystem::path pa_file;   // <name>.json
  std::filesystem::path gap_file;  // <name>_genai_perf.json
};

// The runs under `input_dir`, in subdirectory name order (GenAI-Perf takes the file system's
// order). A subdirectory's pair is X_genai_perf.json with X.json beside it, else (GenAI-Perf's
// rule) any other .json file with a *_genai_perf.json file; one without both is skipped, as is a
// plain file.
std::vector<ExportPair> find_export_pairs(const std::filesystem::path& input_dir);

struct MergedExports {
  nlohmann::ordered_json pa;                      // {"experiments": [...], "version", "service_kind", "endpoint"}
  std::vector<double> request_throughputs;        // each run's request_throughput avg
  std::vector<double> output_token_throughputs;   // each run's output_token_throughput avg
  nlohmann::ordered_json input_config;            // the first run's
  std::vector<nlohmann::ordered_json> telemetry;  // each run's non-empty telemetry_stats
};

// Reads and merges the pairs. Throws MergeError naming the file for unreadable or invalid JSON,
// an export without experiments or requests, or a first run without an input_config.
MergedExports merge_exports(const std::vector<ExportPair>& pairs);

// The LLM format of a merged export (its service_kind, endpoint, and first response when the
// endpoint says nothing): chat, completions, or kKserve for Triton. Throws MergeError for what
// GenAI-Perf 0.0.16 cannot merge (embeddings, rankings, ...) or this front end does not yet
// (dynamic gRPC, the C API).
Format merged_format(const nlohmann::ordered_json& pa);

// Throws MergeError unless the merged experiment is the load the first run's input_config
// names (GenAI-Perf's "Profile with concurrency=4 does not exist.").
void check_load_level(const nlohmann::ordered_json& pa, const nlohmann::ordered_json& input_config);

// The merged requests with their token counts: `count_tokens` counts a text's tokens (no special
// tokens); the prompt is the chat messages' contents joined by spaces, the completions
// prompt's elements (a string prompt: its characters) joined by spaces, or Triton's text_input;
// the output is the responses' texts joined (Triton: their text_output, empty ones kept).
std::vector<PaRequest> merged_requests(const nlohmann::ordered_json& pa, Format format,
                                       const std::function<int64_t(const std::string&)>& count_tokens);

// profile_export_genai_perf.json's statistics (without input_config).
nlohmann::ordered_json merged_statistics(const std::vector<PaRequest>& requests, Format format,
                                         const MergedExports& merged);

// profile_export_genai_perf.json's "sessions" (written after input_config): the statistics of
// each session_id the merged requests carry in request_inputs (perf_analyzer's session runs),
// in order of first appearance, each over that session's requests with content and its own span
// (throughputs included; no goodput); null when no request has one. `requests` are
// merged_requests(pa, ...), in the export's order.
nlohmann::ordered_json session_statistics(const nlohmann::ordered_json& pa, const std::vector<PaRequest>& requests,
                                          Format format);

// input_config of the merged profile_export_genai_perf.json: the first run's endpoint,
// perf_analyzer, input and tokenizer sections and model names; this command's output and process
// sections; subcommand "process".
nlohmann::ordered_json process_input_config(const nlohmann::ordered_json& first, const ProcessArgs& a);

// <artifact dir>/<model>-<service kind>-<type>-<load>, named from the first run's input_config
// as GenAI-Perf names a profile's directory.
std::string process_artifact_directory(const nlohmann::ordered_json& first, const ProcessArgs& a);

// Python's str() of a JSON scalar: 2, 5.0, text.
std::string python_str(const nlohmann::ordered_json& v);

}  // namespace aiperf::cli::genai_perf
