// ServerMetrics: Prometheus scrapes of the inference server(s) during a run (spec §6.8, §7.8).
// Keeps one compact time series per endpoint + metric + label set (not the pages), computes the
// per-series statistics over the profiling window and writes server_metrics_export.{json,csv};
// with the jsonl format each scrape is appended to server_metrics_export.jsonl as it arrives
// (AIPerf 0.13's per-scrape records, tagged with the benchmark phase).
// Not thread-safe: the owner serialises access.
#pragma once
#include <array>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "prometheus/exposition.h"

namespace aiperf::telemetry {

struct ServerSeries {
  std::string endpoint_url;
  std::string family;
  prometheus::MetricType type = prometheus::MetricType::kGauge;
  prometheus::Labels labels;                 // sorted; for histograms without "le"
  std::vector<int64_t> ts;                   // one entry per scrape that had the series
  std::vector<double> values;                // gauge / counter
  std::vector<std::string> les;              // histogram bucket bounds as exposed
  std::vector<std::vector<double>> buckets;  // histogram: cumulative counts per scrape
  std::vector<double> sums, counts;          // histogram
};

struct EndpointFetchStats {
  uint64_t total_fetches = 0;
  int64_t first_fetch_ns = 0, last_fetch_ns = 0;
  int64_t latency_sum_ns = 0;
  std::vector<int64_t> update_ns;  // scrapes whose page differed from the previous one
  size_t last_hash = 0;
};

// The benchmark phase a scrape was taken in, as AIPerf 0.13 tags its per-scrape records.
struct ScrapePhase {
  std::string phase;  // benchmark_phase: "warmup" or "profiling"
  int phase_index = 0;
  std::optional<int> profiling_index;  // profiling phases only
  std::string name;                    // phase_name
  std::string kind;                    // phase_kind
};

// One scrape's timing and phase for its server_metrics_export.jsonl line.
struct JsonlScrape {
  std::string endpoint_url;
  int64_t timestamp_ns = 0;  // the first byte's time when known, else the request's start
  int64_t latency_ns = 0;
  int64_t request_sent_ns = 0;
  std::optional<int64_t> first_byte_ns;
  const ScrapePhase* phase = nullptr;  // none before the first phase and between phases
};

// server_metrics_jsonl.cpp: the scrape's line of server_metrics_export.jsonl (no newline) as
// AIPerf 0.13 writes it: its family names (a counter's without "_total"), no families without
// samples, no summaries, "_info", "_created" or "_uptime" families, labels sorted, non-finite
// values left out; "" when no family is left (0.13 writes no line).
std::string jsonl_record(const JsonlScrape& scrape, const prometheus::Exposition& page);

struct ExportHeader {
  std::string aiperf_version;
  std::string benchmark_id;
  nlohmann::ordered_json input_config;
};

class ServerMetrics {
 public:
  // `jsonl_path` empty = no per-scrape file; `slice_s`: --slice-duration, the exports' timeslices.
  explicit ServerMetrics(const std::string& jsonl_path, std::optional<double> slice_s = std::nullopt);

  // Records one successful scrape; false (and nothing recorded) when the page does not parse.
  // As in AIPerf 0.13 the scrape's time is its first byte's (`first_byte_wall_ns`, 0 = unknown:
  // the request's start `wall_ns`). Its jsonl line (if any) carries `phase`; a page identical to
  // the endpoint's previous one gets none (0.13 skips duplicates there).
  bool add_scrape(const std::string& url, int64_t wall_ns, int64_t first_byte_wall_ns, int64_t latency_ns,
                  std::string_view body, const ScrapePhase* phase = nullptr);

  bool endpoint_has_data(const std::string& url) const { return fetches_.count(url) > 0; }
  const std::vector<ServerSeries>& series() const { return series_; }

  // server_metrics_export.json over the window [start_ns, end_ns].
  nlohmann::ordered_json export_json(const ExportHeader& header, const std::vector<std::string>& configured,
                                     const std::vector<std::string>& successful, int64_t start_ns,
                                     int64_t end_ns) const;
  // server_metrics_export.csv (CRLF rows after '\n'-terminated comment lines).
  std::string export_csv(const ExportHeader& header, int64_t start_ns) const;

  void flush_jsonl();

 private:
  struct FamilyInfo {
    prometheus::MetricType type;
    std::string help;
  };
  std::vector<ServerSeries> series_;
  std::map<std::string, size_t> index_;  // endpoint \n family \n label key -> series_
  std::map<std::string, FamilyInfo> families_;
  std::map<std::string, EndpointFetchStats> fetches_;
  std::unique_ptr<std::ofstream> jsonl_;
  std::optional<double> slice_s_;
};

// One series' export over the window from `start_ns` to its last scrape (spec §6.8): "stats"
// (empty when no scrape falls in the window: AIPerf leaves the series out), a histogram's
// "buckets" (the per-le increase; null when a bucket went back) and, with --slice-duration
// (`slice_s`), AIPerf 0.13's "timeslices" (null when it writes none; a counter's may be []).
struct SeriesExport {
  nlohmann::ordered_json stats = nlohmann::ordered_json::object();
  nlohmann::ordered_json buckets;
  nlohmann::ordered_json timeslices;
};
SeriesExport series_export(const ServerSeries& s, int64_t start_ns, std::optional<double> slice_s = std::nullopt);

// The window of a series in AIPerf 0.13's terms: `first` is its first scrape at or after the
// profiling start, `last` its last scrape, `ref` the scrape before `first` (the baseline of a
// cumulative series) when there is one. Timeslices run from ts[first] to ts[last].
struct SeriesWindow {
  size_t first = 0, last = 0;
  std::optional<size_t> ref;
};

// server_metrics_timeslices.cpp: AIPerf 0.13's timeslices of `slice_s` seconds over the window;
// the last one, cut short by the window's end, says "is_complete": false.
nlohmann::ordered_json counter_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s);
nlohmann::ordered_json gauge_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s);
nlohmann::ordered_json histogram_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s);

// A counter's increase since the last scrape at or before `start_ns` (else its first), summing
// the steps so that a reset (a decrease) loses nothing: the Client vs Server totals.
double reset_aware_increase(const ServerSeries& s, int64_t start_ns);

// AIPerf 0.13's unit display name of a family (server_metrics_units.cpp): from the description
// (a 0-1/0-100 range, "(in W)", "in seconds", ...), else the name's suffix ("_seconds" ->
// "seconds", "_tokens" -> "tokens", "_total" -> "count", ...); "" when none applies.
std::string infer_unit(std::string_view metric_name, const std::string& description = "");

// server_metrics_csv_order.cpp, AIPerf 0.13's CSV section layout: the label columns (labels
// that occur together form a family; families by their smallest label; in each, the labels of
// one series first, then those shared by several, each sorted) and the row order (by which of
// those columns a row fills, then family name, endpoint and labels).
std::vector<std::string> csv_label_columns(const std::vector<const ServerSeries*>& rows);
void sort_csv_rows(std::vector<const ServerSeries*>& rows, const std::vector<std::string>& columns);

// server_metrics_quantiles.cpp, AIPerf 0.13's histogram quantile estimates. A bucket's statistics
// learned from the scrape intervals whose new observations all fell into it: their count, the
// count-weighted sum of the intervals' means, and each interval's mean.
struct LearnedBucket {
  int64_t observations = 0;
  double weighted_mean_sum = 0;
  std::vector<double> means;
  double mean() const;                     // weighted mean (observations > 0)
  std::optional<double> variance() const;  // of the interval means, ddof 1; from three intervals on
};
// Learns each bucket (indexed as s.les) over the intervals between consecutive scrapes from
// scrape `from` (the window's reference scrape, else the first) to the series' last.
std::vector<LearnedBucket> learn_buckets(const ServerSeries& s, size_t from);
// p1, p5, p10, p25, p50, p75, p90, p95, p99 of a histogram whose cumulative buckets (`les`) grew by
// `increase` (as integers) while its sum grew by `sum` and its count by `count`; nullopt when 0.13
// writes none (no observations, no finite bucket, a sum that is negative or not finite).
std::optional<std::array<double, 9>> estimate_quantiles(const std::vector<std::string>& les,
                                                        const std::vector<int64_t>& increase,
                                                        const std::vector<LearnedBucket>& learned, double sum,
                                                        int64_t count);
// The indexes of `les` in bound order (+Inf last).
std::vector<size_t> bucket_order(const std::vector<std::string>& les);

// The family's name in the exports: AIPerf 0.13's, a counter without its "_total" suffix.
std::string export_family_name(const ServerSeries& s);

}  // namespace aiperf::telemetry
