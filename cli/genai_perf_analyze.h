// `genai-perf analyze` (GenAI-Perf 0.0.16), the pure part: the sweep (--sweep-type with
// --sweep-range min:max[:step] or --sweep-list a,b,c, or a config file's `analyze:` section),
// each point's profile arguments and artifact directory, and analyze_export_genai_perf.csv.
//
// Points as GenAI-Perf enumerates them: a range without step of concurrency, request_rate or
// input_sequence_length walks the powers of two 2^k, k = int(log2(min)) .. int(log2(max));
// of num_dataset_entries every integer min..max; with a step, range(min, max + 1, step); a
// list as given. Each point runs as one `genai-perf profile` in
// <artifact-dir>/<model>-openai-<type>-<sweep type><value> (the point replaces the load part of
// profile's directory name) and its row in the CSV is named <model>_run_config_<index>.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "genai_perf_options.h"

namespace aiperf::cli::genai_perf {

struct Sweep {
  std::string type;             // concurrency, request_rate, num_dataset_entries, input_sequence_length
  std::vector<int64_t> values;  // the points, in run order
  nlohmann::ordered_json echo;  // input_config's analyze.sweep_parameters: {type: {min, max}} or {type: [..]}
};

// The parameters GenAI-Perf 0.0.16 can sweep (its --sweep-type also offers batch_size, which
// its own config then rejects).
bool sweepable(const std::string& type);

// --sweep-type/--sweep-range/--sweep-list, validated as GenAI-Perf's parser does (range format
// and integers, positive, max > min, powers of two and no step for concurrency; list of
// positive integers). Throws GenAiPerfOptionError naming the option.
Sweep sweep_from_cli(const std::string& type, const std::string& range, const std::string& list);

// A range as a config file gives it (start/stop[/step]); no power-of-two check, as GenAI-Perf
// (3..8 of concurrency walks 2, 4, 8). Throws GenAiPerfOptionError (bad type, non-positive,
// start > stop, step < 1).
Sweep sweep_from_range(const std::string& type, int64_t start, int64_t stop, std::optional<int64_t> step);

// The profile arguments of one point: the base with the swept value in place (concurrency,
// request rate, dataset entries, or synthetic input tokens mean for input_sequence_length).
ProfileArgs point_args(const ProfileArgs& base, const Sweep& sweep, int64_t value);

// The point's artifact directory (see the file comment).
std::string point_directory(const ProfileArgs& base, const Sweep& sweep, int64_t value);

// One row of analyze_export_genai_perf.csv: the point's statistics (profile_export_genai_perf.json
// without input_config), its load value, its dataset entries.
struct AnalyzeRow {
  std::string name;        // <model>_run_config_<index>
  int64_t load = 1;        // the Concurrency / Request Rate column
  int64_t num_dataset_entries = 100;
  nlohmann::ordered_json stats;
};

// The load column of a point: the swept concurrency or request rate, else the base's (its
// integer part for a rate), else 1.
int64_t point_load(const ProfileArgs& base, const Sweep& sweep, int64_t value);
// "Request Rate" when the sweep or the base load is a request rate, else "Concurrency".
bool load_is_request_rate(const ProfileArgs& base, const Sweep& sweep);

// The CSV: the perf metrics header and one row per point, best first as GenAI-Perf orders its
// results (highest average request throughput first, ties in run order) (p99 TTFT, ITL, latency, OSL; average
// output token and request throughput, "%.2f", 0.00 when a metric is absent; ISL the integer part
// of its p99), an empty row, then the GPU metrics header; no GPU rows (no DCGM telemetry). CRLF
// line ends, as Python's csv module writes.
std::string analyze_csv(const std::vector<AnalyzeRow>& rows, bool request_rate);

// The usage text of `genai-perf analyze --help`: the sweep options, then profile's.
std::string analyze_help();

}  // namespace aiperf::cli::genai_perf
