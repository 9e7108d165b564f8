// server_metrics_export.json and .csv (spec §7.8), in AIPerf 0.13's layout where it is known:
// JSON schema 1.1 with summary.phase_time_ranges and metrics_phase, empty label sets left out;
// CSV with host:port endpoints, numbers to four decimals (counts as integers) and its comment
// header; 0.13's family names (a counter without "_total"), units and statistics, families in
// name order, its CSV label columns and row order, and its histogram quantile estimates
// (server_metrics_quantiles.cpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "export/csv_row.h"
#include "export/number_format.h"
#include "endpoint_display.h"
#include "export/summary_json.h"
#include "server_metrics.h"
#include "stats/stats.h"

namespace aiperf::telemetry {
namespace {

namespace pm = prometheus;

bool is_info(const ServerSeries& s) {
  return s.type == pm::MetricType::kGauge && s.family.size() > 5 &&
         s.family.compare(s.family.size() - 5, 5, "_info") == 0;
}

// AIPerf 0.13's CSV cell: f"{v:.4f}", an integer statistic (a histogram's count) as an integer.
std::string number(const nlohmann::ordered_json& stats, const std::string& key) {
  auto it = stats.find(key);
  if (it == stats.end() || !it->is_number()) return "";
  const double v = it->get<double>();
  if (std::isnan(v)) return "";
  if (key == "count") return exporting::plain_int(v);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

std::vector<std::string> stat_keys(pm::MetricType type) {
  switch (type) {
    case pm::MetricType::kCounter:
      return {"total", "rate", "rate_avg", "rate_min", "rate_max", "rate_std"};
    case pm::MetricType::kHistogram: {
      std::vector<std::string> keys = {"count", "count_rate", "sum", "sum_rate", "avg"};
      for (const char* p : {"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"})
        keys.push_back(std::string(p) + "_estimate");
      return keys;
    }
    default:
      return {"avg", "min", "max", "std", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"};
  }
}

}  // namespace

nlohmann::ordered_json ServerMetrics::export_json(const ExportHeader& header,
                                                  const std::vector<std::string>& configured,
                                                  const std::vector<std::string>& successful, int64_t start_ns,
                                                  int64_t end_ns) const {
  nlohmann::ordered_json j;
  j["schema_version"] = "1.1";
  j["aiperf_version"] = header.aiperf_version;
  j["benchmark_id"] = header.benchmark_id;
  auto& summary = j["summary"];
  summary["endpoints_configured"] = configured;
  summary["endpoints_successful"] = successful;
  summary["start_time"] = exporting::local_iso_datetime(start_ns);
  summary["end_time"] = exporting::local_iso_datetime(end_ns);
  auto& info = summary["endpoint_info"] = nlohmann::ordered_json::object();
  for (const auto& [url, f] : fetches_) {
    auto& e = info[url];
    e["total_fetches"] = f.total_fetches;
    e["first_fetch_ns"] = f.first_fetch_ns;
    e["last_fetch_ns"] = f.last_fetch_ns;
    e["avg_fetch_latency_ms"] = f.total_fetches ? static_cast<double>(f.latency_sum_ns) / f.total_fetches / 1e6 : 0.0;
    e["unique_updates"] = f.update_ns.size();
    e["first_update_ns"] = f.update_ns.front();
    e["last_update_ns"] = f.update_ns.back();
    e["duration_seconds"] = static_cast<double>(f.update_ns.back() - f.update_ns.front()) / 1e9;
    std::vector<double> intervals;
    for (size_t i = 1; i < f.update_ns.size(); ++i)
      intervals.push_back(static_cast<double>(f.update_ns[i] - f.update_ns[i - 1]) / 1e6);
    if (!intervals.empty()) {
      e["avg_update_interval_ms"] = stats::mean(intervals);
      std::sort(intervals.begin(), intervals.end());
      e["median_update_interval_ms"] = stats::percentile_sorted(intervals, 50);
    }
  }
  if (start_ns < end_ns) summary["phase_time_ranges"]["profiling"] = {{"start_ns", start_ns}, {"end_ns", end_ns}};
  j["metrics_phase"] = "profiling";  // the statistics cover the profiling phase
  auto& metrics = j["metrics"] = nlohmann::ordered_json::object();
  // As AIPerf 0.13: families by name, each one's series by endpoint and label set.
  std::vector<const ServerSeries*> order;
  for (const ServerSeries& s : series_) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(), [](const ServerSeries* a, const ServerSeries* b) {
    const std::string na = export_family_name(*a), nb = export_family_name(*b);
    if (na != nb) return na < nb;
    if (a->endpoint_url != b->endpoint_url) return a->endpoint_url < b->endpoint_url;
    return a->labels < b->labels;
  });
  for (const ServerSeries* sp : order) {
    const ServerSeries& s = *sp;
    auto& m = metrics[export_family_name(s)];
    if (m.empty()) {
      const auto fam = families_.find(s.family);
      const std::string help = fam != families_.end() ? fam->second.help : "";
      m["type"] = is_info(s) ? "info" : std::string(pm::type_name(s.type));
      m["description"] = help;
      if (!is_info(s)) {
        const std::string unit = infer_unit(export_family_name(s), help);
        if (!unit.empty()) m["unit"] = unit;
      }
      m["series"] = nlohmann::ordered_json::array();
    }
    nlohmann::ordered_json entry;
    entry["endpoint_url"] = s.endpoint_url;
    for (const auto& [k, v] : s.labels) entry["labels"][k] = v;  // left out when there are none
    if (!is_info(s)) {
      SeriesExport e = series_export(s, start_ns, slice_s_);
      if (e.stats.empty()) continue;  // no scrape in the window: AIPerf leaves the series out
      entry["stats"] = std::move(e.stats);
      if (s.type == pm::MetricType::kHistogram && !e.buckets.is_null()) entry["buckets"] = std::move(e.buckets);
      if (!e.timeslices.is_null()) entry["timeslices"] = std::move(e.timeslices);
    }
    m["series"].push_back(std::move(entry));
  }
  j["input_config"] = header.input_config;
  return j;
}

std::string ServerMetrics::export_csv(const ExportHeader& header, int64_t start_ns) const {
  std::string out;
  // The comment lines end in '\n', the CSV rows in "\r\n" (AIPerf writes the comments itself).
  out += "# AIPerf Server Metrics Export (CSV)\n";
  out += "# aiperf_version: " + header.aiperf_version + "\n";
  out += "# schema_version: 1.0\n";
  out += "# benchmark_id: " + header.benchmark_id + "\n";
  out += "# Note: Same benchmark_id and version appear in JSON and Parquet exports\n";
  out += "#\n";
  bool first_section = true;
  for (pm::MetricType type : {pm::MetricType::kGauge, pm::MetricType::kCounter, pm::MetricType::kHistogram}) {
    std::vector<const ServerSeries*> rows;
    for (const ServerSeries& s : series_)
      if (s.type == type && !is_info(s)) rows.push_back(&s);
    if (rows.empty()) continue;
    const std::vector<std::string> label_names = csv_label_columns(rows);
    sort_csv_rows(rows, label_names);
    if (!first_section) out += "\r\n";
    first_section = false;
    const std::vector<std::string> keys = stat_keys(type);
    std::vector<std::string> head = {"Endpoint", "Type", "Metric", "Unit"};
    head.insert(head.end(), keys.begin(), keys.end());
    head.insert(head.end(), label_names.begin(), label_names.end());
    head.push_back("Description");
    if (type == pm::MetricType::kHistogram) head.push_back("buckets");
    exporting::append_csv_row(out, head);
    for (const ServerSeries* s : rows) {
      SeriesExport e = series_export(*s, start_ns, slice_s_);
      const nlohmann::ordered_json& stats = e.stats;
      nlohmann::ordered_json& buckets = e.buckets;
      const auto fam = families_.find(s->family);
      const std::string help = fam != families_.end() ? fam->second.help : "";
      std::vector<std::string> row = {endpoint_display(s->endpoint_url), std::string(pm::type_name(type)),
                                      export_family_name(*s), infer_unit(export_family_name(*s), help)};
      for (const auto& k : keys) row.push_back(number(stats, k));
      for (const auto& name : label_names) {
        const auto it = std::find_if(s->labels.begin(), s->labels.end(), [&](auto& kv) { return kv.first == name; });
        row.push_back(it == s->labels.end() ? "" : it->second);
      }
      row.push_back(help);
      if (type == pm::MetricType::kHistogram) {
        std::string cell;
        if (buckets.is_null()) buckets = nlohmann::ordered_json::object();
        for (const auto& [le, n] : buckets.items()) {
          if (!cell.empty()) cell += ';';
          cell += le + "=" + exporting::plain_int(n.get<double>());
        }
        row.push_back(cell);
      }
      exporting::append_csv_row(out, row);
    }
  }
  bool info_header = false;
  for (const ServerSeries& s : series_) {
    if (!is_info(s)) continue;
    if (!info_header) {
      out += "\r\n";
      exporting::append_csv_row(out, {"Endpoint", "Metric", "Key", "Value", "Description"});
      info_header = true;
    }
    const auto fam = families_.find(s.family);
    for (const auto& [k, v] : s.labels)
      exporting::append_csv_row(
          out, {endpoint_display(s.endpoint_url), s.family, k, v, fam != families_.end() ? fam->second.help : ""});
  }
  return out;
}

}  // namespace aiperf::telemetry
