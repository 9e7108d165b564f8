// `aiperf analyze-trace`, the pure part: ISL/OSL distributions, shared-prefix (context) lengths
// and theoretical cache hit rates of a mooncake trace, computed as AIPerf 0.13's PrefixAnalyzer
// does (numpy statistics: population std, linear-interpolation percentiles).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace aiperf::cli::analyze {

// One trace line as the analysis sees it: a missing input_length/output_length counts as 0.
struct TraceRow {
  int64_t input_length = 0;
  int64_t output_length = 0;
  std::vector<int64_t> hash_ids;
};

struct MetricStats {
  double mean = 0, std_dev = 0, min = 0, p25 = 0, median = 0, p75 = 0, max = 0;
};

struct TraceStats {
  int64_t total_requests = 0;
  int64_t unique_prefixes = 0;    // distinct hash_ids prefixes (of every length)
  int64_t num_prefix_groups = 0;  // first blocks that start 2+ requests
  double cache_hit_rate = 0;      // mean per-request hit rate with an infinite cache
  int64_t min_isl = 0, max_isl = 0;
  double avg_isl = 0;
  int64_t min_osl = 0, max_osl = 0;
  double avg_osl = 0;
  double prefix_reuse_ratio = 0;  // occurrences of prefixes seen 2+ times / all occurrences
  std::optional<MetricStats> isl, osl, context_length, unique_prompt_length, hit_rate;
};

// Statistics of `values`; nullopt when empty.
std::optional<MetricStats> metric_stats(const std::vector<double>& values);

// The analysis of `rows` (trace order matters for hit rates) with KV blocks of `block_size` tokens.
TraceStats analyze_rows(const std::vector<TraceRow>& rows, int64_t block_size);

// Reads a mooncake JSONL file (blank lines skipped). Throws dataset::DatasetFileError
// "path:line: ..." for a missing file, invalid JSON or a field of the wrong type.
std::vector<TraceRow> read_trace_rows(const std::string& path);

// The report file: AIPerf's AnalysisStats JSON (same keys, same order; null for empty stats).
nlohmann::ordered_json stats_json(const TraceStats& stats);

// The console report: the header counts and the "Trace Statistics" table.
std::string render_report(const TraceStats& stats);

}  // namespace aiperf::cli::analyze
