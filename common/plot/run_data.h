// What the plots read from a run directory, loaded from the files AIPerf's `aiperf plot` reads:
// profile_export_aiperf.json (summary), profile_export.jsonl (per request),
// profile_export_aiperf_timeslices.csv, gpu_telemetry_export.jsonl; or, for a trials > 1 sweep
// point, profile_export_aiperf_aggregate.json (the confidence aggregate, no per-request file).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::plot {

// A file the plots need is missing or unreadable: names the file (and line when it has one).
struct DataLoadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One metric of the summary: its unit and statistics ("avg", "p50", "min", ...; a scalar
// metric like request_count has "avg" only). From an aggregate: the mean over trials per
// statistic, with the confidence interval of each in ci_low / ci_high.
struct MetricStats {
  std::string unit;
  std::map<std::string, double> stats;
  std::map<std::string, double> ci_low, ci_high;
  std::optional<double> get(const std::string& stat) const {
    auto it = stats.find(stat);
    return it == stats.end() ? std::nullopt : std::optional<double>(it->second);
  }
};

// One line of profile_export.jsonl (a request), values in the file's units (ms, tokens).
struct RequestRow {
  int64_t start_ns = 0, end_ns = 0;
  std::optional<double> ttft_ms, itl_ms, latency_ms, osl;
  bool error = false;
};

// One row of the timeslice CSV (tidy form: Timeslice,Metric,Unit,Stat,Value).
struct TimesliceRow {
  int slice = 0;
  std::string metric, unit, stat;
  double value = 0;
};

// One GPU sample of gpu_telemetry_export.jsonl (the fields the plots use).
struct GpuSample {
  int64_t timestamp_ns = 0;
  std::string gpu;  // uuid, or index when absent
  std::optional<double> utilization;  // nvidia_gpu_utilization (or 0.6's gpu_utilization), %
};

struct RunData {
  std::string dir;   // as found
  std::string name;  // the folder's name (e.g. concurrency_4)
  std::string model = "Unknown";
  std::string endpoint_type;
  int64_t concurrency = 1;  // input_config loadgen.concurrency (1 when unset, as the reference)
  std::optional<double> slice_duration;  // artifacts.slice_duration (0.6: output.), seconds
  bool aggregate = false;                // loaded from a confidence aggregate
  int trials = 1;                        // aggregate: successful trials
  std::vector<std::string> metric_order;  // summary keys in file order
  std::map<std::string, MetricStats> metrics;
  int gpu_count = 0;  // GPUs in telemetry_data (0 = no telemetry)
  std::vector<RequestRow> requests;
  std::vector<TimesliceRow> timeslices;
  std::vector<GpuSample> gpu;
  nlohmann::ordered_json client_server;  // the summary's "client_server" section (ours), null when absent

  const MetricStats* metric(const std::string& tag) const {
    auto it = metrics.find(tag);
    return it == metrics.end() ? nullptr : &it->second;
  }
  // The value a multi-run plot uses for a metric: p50 when present, else avg (the reference's
  // DEFAULT_PERCENTILE rule), nullopt when the run lacks the metric.
  std::optional<double> point_value(const std::string& tag) const;
};

// Loads the run in `dir`. with_requests: also read the per-request, timeslice and GPU files
// (single-run plots); the summary alone is enough for multi-run plots. Adds the derived
// output_token_throughput_per_gpu (output_token_throughput / GPUs) when telemetry names GPUs.
// Throws DataLoadError naming the file.
RunData load_run(const std::string& dir, bool with_requests);

// The per-request file alone (also used by tests): throws DataLoadError "file:line: ..." on a
// line that is not JSON.
std::vector<RequestRow> load_requests(const std::string& jsonl_path);
std::vector<TimesliceRow> load_timeslices(const std::string& csv_path);

}  // namespace aiperf::plot
