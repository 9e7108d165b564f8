// The GPU telemetry outputs: summary JSON section, CSV section, console tables.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "endpoint_display.h"
#include "export/csv_row.h"
#include "export/number_format.h"
#include "export/summary_json.h"
#include "export/text_table.h"
#include "export/warning_panels.h"
#include "gpu_telemetry.h"

namespace aiperf::telemetry {
namespace {

nlohmann::ordered_json metric_json(const GpuMetricSummary& m) {
  nlohmann::ordered_json j;
  j["unit"] = m.unit;
  if (m.counter) {
    j["avg"] = m.delta;  // a counter's result is its increase over the run
    return j;
  }
  // AIPerf 0.13's JsonMetricResult field order.
  j["avg"] = m.summary.avg;
  for (size_t i = 0; i < stats::kPercentiles.size(); ++i) j[stats::kPercentileNames[i]] = m.summary.percentiles[i];
  j["min"] = m.summary.min;
  j["max"] = m.summary.max;
  j["std"] = m.summary.std;
  j["count"] = m.summary.count;
  j["sum"] = m.summary.sum;
  return j;
}

double percentile(const stats::Summary& s, double q) {
  for (size_t i = 0; i < stats::kPercentiles.size(); ++i)
    if (stats::kPercentiles[i] == q) return s.percentiles[i];
  return 0;
}

// The console's number: f"{v:,.2f}", or f"{v:.2e}" from a million on (AIPerf's GPU table).
std::string console_number(double v) {
  if (std::fabs(v) >= 1e6) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2e", v);
    return buf;
  }
  return exporting::grouped2(v);
}

}  // namespace

nlohmann::ordered_json telemetry_data_json(const std::vector<GpuSummary>& gpus,
                                           const std::vector<std::string>& configured,
                                           const std::vector<std::string>& successful, int64_t start_ns,
                                           int64_t end_ns) {
  nlohmann::ordered_json j;
  auto& summary = j["summary"];
  summary["endpoints_configured"] = configured;
  summary["endpoints_successful"] = successful;
  summary["start_time"] = exporting::local_iso_datetime(start_ns);
  summary["end_time"] = exporting::local_iso_datetime(end_ns);
  auto& endpoints = j["endpoints"] = nlohmann::ordered_json::object();
  for (const GpuSummary& gpu : gpus) {
    auto& g = endpoints[endpoint_display(gpu.id.endpoint_url)]["gpus"]["gpu_" + std::to_string(gpu.id.index)];
    g["gpu_index"] = gpu.id.index;
    g["gpu_name"] = gpu.id.model_name;
    g["gpu_uuid"] = gpu.id.uuid;
    g["platform"] = gpu.id.platform;
    if (!gpu.id.hostname.empty()) g["hostname"] = gpu.id.hostname;
    if (!gpu.id.namespace_name.empty()) g["namespace"] = gpu.id.namespace_name;
    if (!gpu.id.pod_name.empty()) g["pod_name"] = gpu.id.pod_name;
    auto& metrics = g["metrics"] = nlohmann::ordered_json::object();
    for (const GpuMetricSummary& m : gpu.metrics) metrics[m.key] = metric_json(m);
  }
  j["error_summary"] = nlohmann::ordered_json::array();
  return j;
}

std::string telemetry_csv_section(const std::vector<GpuSummary>& gpus) {
  const bool hostname = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.hostname.empty(); });
  const bool ns = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.namespace_name.empty(); });
  const bool pod = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.pod_name.empty(); });
  std::string out = "\r\n";
  std::vector<std::string> header = {"Endpoint", "GPU_Index", "GPU_Name", "GPU_UUID", "Platform",
                                     "Metric",   "avg",       "min",      "max",      "sum"};
  for (const char* p : stats::kPercentileNames) header.push_back(p);
  header.push_back("std");
  if (hostname) header.push_back("Hostname");
  if (ns) header.push_back("Namespace");
  if (pod) header.push_back("Pod Name");
  exporting::append_csv_row(out, header);
  for (const GpuSummary& gpu : gpus) {
    for (const GpuMetricSummary& m : gpu.metrics) {
      std::vector<std::string> row = {endpoint_display(gpu.id.endpoint_url),
                                      std::to_string(gpu.id.index),
                                      gpu.id.model_name,
                                      gpu.id.uuid,
                                      gpu.id.platform,
                                      m.display + " (" + m.unit + ")"};
      if (m.counter) {
        row.push_back(exporting::fixed2(m.delta));
        row.resize(row.size() + 3 + stats::kPercentiles.size() + 1);  // min, max, sum, p*, std
      } else {
        row.push_back(exporting::fixed2(m.summary.avg));
        row.push_back(exporting::fixed2(m.summary.min));
        row.push_back(exporting::fixed2(m.summary.max));
        row.push_back(exporting::fixed2(m.summary.sum));  // AIPerf sums the window's samples
        for (double p : m.summary.percentiles) row.push_back(exporting::fixed2(p));
        row.push_back(exporting::fixed2(m.summary.std));
      }
      if (hostname) row.push_back(gpu.id.hostname);
      if (ns) row.push_back(gpu.id.namespace_name);
      if (pod) row.push_back(gpu.id.pod_name);
      exporting::append_csv_row(out, row);
    }
  }
  return out;
}

std::string telemetry_console(const std::vector<GpuSummary>& gpus, const std::vector<std::string>& configured,
                              const std::vector<std::string>& successful, bool unicode_box,
                              const std::string& efficiency_tables, const std::string& server_tables) {
  // The platform panel comes first (AIPerf prints it ahead of every GPU section).
  std::vector<std::string> platforms;
  for (const GpuSummary& gpu : gpus)
    if (std::find(platforms.begin(), platforms.end(), gpu.id.platform) == platforms.end())
      platforms.push_back(gpu.id.platform);
  std::sort(platforms.begin(), platforms.end());
  std::string platform_text;
  for (const std::string& p : platforms) platform_text += (platform_text.empty() ? "" : ", ") + p;
  std::string out = "\n" + exporting::format_panel("GPU Telemetry Platform",
                                                   {"Platform: " + (platform_text.empty() ? "unknown" : platform_text),
                                                    "Metric semantics are platform-specific; cross-platform "
                                                    "comparisons require workload and collector validation."},
                                                   unicode_box);
  // As AIPerf 0.13's exporters space them: one blank line before the server tables, two before
  // the others.
  out += !server_tables.empty() && efficiency_tables.empty() ? "\n" : "\n\n";
  if (!efficiency_tables.empty()) out += efficiency_tables + "\n";
  if (!server_tables.empty()) out += server_tables + "\n\n";
  auto reachable = [&](const std::string& url) {
    return std::find(successful.begin(), successful.end(), url) != successful.end();
  };
  if (gpus.empty()) {
    out += "No GPU telemetry data collected during the benchmarking run.";
    bool first = true;
    for (const std::string& url : configured) {
      if (reachable(url)) continue;
      if (first) out += "\n\nUnreachable endpoints:";
      first = false;
      out += "\n  \u2022 " + endpoint_display(url);
    }
    return out + "\n";
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    const GpuSummary& gpu = gpus[i];
    exporting::TextTable t;
    t.title = endpoint_display(gpu.id.endpoint_url) + " | GPU " + std::to_string(gpu.id.index) + " | " +
              gpu.id.model_name;
    if (i == 0) {
      std::string head = "AIPerf | GPU Telemetry Summary\n" + std::to_string(successful.size()) + "/" +
                         std::to_string(configured.size()) + " telemetry sources reachable\n";
      for (const std::string& url : configured)
        head += "\u2022 " + endpoint_display(url) + (reachable(url) ? " \u2714" : " \u2718 (unreachable)") + "\n";
      t.title = head + "\n" + t.title;
    } else {
      out += "\n";  // AIPerf's empty Text between two GPUs' tables
    }
    t.headers = {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"};
    t.justify.assign(t.headers.size(), exporting::Justify::kRight);
    for (const GpuMetricSummary& m : gpu.metrics) {
      if (!m.aiperf) continue;  // our extra fields are in the files only, as AIPerf's table lists its own
      const std::string label = m.display + " (" + m.unit + ")";
      if (m.counter) {
        t.rows.push_back({label, console_number(m.delta), "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"});
        continue;
      }
      const stats::Summary& s = m.summary;
      t.rows.push_back({label, console_number(s.avg), console_number(s.min), console_number(s.max),
                        console_number(percentile(s, 99)), console_number(percentile(s, 90)),
                        console_number(percentile(s, 50)), console_number(s.std)});
    }
    out += exporting::render_table(t, unicode_box);
  }
  return out;
}

std::string power_efficiency_console(std::string_view platform, const std::vector<proto::MetricResult>& metrics,
                                     bool unicode_box) {
  const std::string prefix = std::string(platform) + "_";
  std::vector<const proto::MetricResult*> shown;
  for (const proto::MetricResult& m : metrics)
    if (m.tag().compare(0, prefix.size(), prefix) == 0) shown.push_back(&m);
  if (shown.empty()) return {};
  std::stable_sort(shown.begin(), shown.end(),
                   [](const auto* a, const auto* b) { return a->display_order() < b->display_order(); });
  exporting::TextTable t;
  std::string vendor(platform);
  std::transform(vendor.begin(), vendor.end(), vendor.begin(), [](unsigned char c) { return std::toupper(c); });
  t.title = "GPU Power Efficiency (" + vendor + ")";
  t.headers = {"Metric", "avg"};
  t.justify.assign(t.headers.size(), exporting::Justify::kRight);
  // As the main metrics table: Rich wraps the unit onto a second line after a long header.
  constexpr size_t kMaxSingleLineHeader = 30;
  for (const proto::MetricResult* m : shown) {
    const char separator = m->header().size() > kMaxSingleLineHeader ? '\n' : ' ';
    t.rows.push_back({m->header() + separator + "(" + m->unit() + ")", exporting::grouped2(m->avg())});
  }
  return exporting::render_table(t, unicode_box);
}

}  // namespace aiperf::telemetry
