// The GPU telemetry outputs: summary JSON section, CSV section, console tables.
#include <algorithm>

#include "endpoint_display.h"
#include "export/csv_row.h"
#include "export/number_format.h"
#include "export/summary_json.h"
#include "export/text_table.h"
#include "gpu_telemetry.h"

namespace aiperf::telemetry {
namespace {

constexpr const char* kPercentileNames[] = {"p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"};

nlohmann::ordered_json metric_json(const GpuMetricSummary& m) {
  nlohmann::ordered_json j;
  j["unit"] = m.unit;
  if (m.counter) {
    j["avg"] = m.delta;  // a counter's result is its increase over the run
    return j;
  }
  j["avg"] = m.summary.avg;
  j["min"] = m.summary.min;
  j["max"] = m.summary.max;
  for (size_t i = 0; i < stats::kPercentiles.size(); ++i) j[kPercentileNames[i]] = m.summary.percentiles[i];
  j["std"] = m.summary.std;
  return j;
}

double percentile(const stats::Summary& s, double q) {
  for (size_t i = 0; i < stats::kPercentiles.size(); ++i)
    if (stats::kPercentiles[i] == q) return s.percentiles[i];
  return 0;
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
    g["hostname"] = gpu.id.hostname;
    if (!gpu.id.namespace_name.empty()) g["namespace"] = gpu.id.namespace_name;
    if (!gpu.id.pod_name.empty()) g["pod_name"] = gpu.id.pod_name;
    auto& metrics = g["metrics"] = nlohmann::ordered_json::object();
    for (const GpuMetricSummary& m : gpu.metrics) metrics[m.key] = metric_json(m);
  }
  return j;
}

std::string telemetry_csv_section(const std::vector<GpuSummary>& gpus) {
  if (gpus.empty()) return {};
  const bool hostname = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.hostname.empty(); });
  const bool ns = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.namespace_name.empty(); });
  const bool pod = std::any_of(gpus.begin(), gpus.end(), [](auto& g) { return !g.id.pod_name.empty(); });
  std::string out = "\r\n";
  std::vector<std::string> header = {"Endpoint", "GPU_Index", "GPU_Name", "GPU_UUID", "Metric", "avg", "min", "max",
                                     "sum"};
  for (const char* p : kPercentileNames) header.push_back(p);
  header.push_back("std");
  if (hostname) header.push_back("Hostname");
  if (ns) header.push_back("Namespace");
  if (pod) header.push_back("Pod Name");
  exporting::append_csv_row(out, header);
  for (const GpuSummary& gpu : gpus) {
    for (const GpuMetricSummary& m : gpu.metrics) {
      std::vector<std::string> row = {endpoint_display(gpu.id.endpoint_url), std::to_string(gpu.id.index),
                                      gpu.id.model_name, gpu.id.uuid, m.display + " (" + m.unit + ")"};
      if (m.counter) {
        row.push_back(exporting::fixed2(m.delta));
        row.resize(row.size() + 3 + stats::kPercentiles.size() + 1);  // min, max, sum, p*, std
      } else {
        row.push_back(exporting::fixed2(m.summary.avg));
        row.push_back(exporting::fixed2(m.summary.min));
        row.push_back(exporting::fixed2(m.summary.max));
        row.push_back("");  // sum: not meaningful for sampled gauges
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
                              const std::vector<std::string>& successful, bool unicode_box) {
  std::string out = "\nNVIDIA AIPerf | GPU Telemetry Summary\n";
  out += std::to_string(successful.size()) + "/" + std::to_string(configured.size()) + " DCGM endpoints reachable\n";
  for (const std::string& url : configured) {
    const bool ok = std::find(successful.begin(), successful.end(), url) != successful.end();
    out += "\u2022 " + endpoint_display(url) + (ok ? " \u2714" : " \u2718") + "\n";
  }
  for (const GpuSummary& gpu : gpus) {
    exporting::TextTable t;
    t.title = endpoint_display(gpu.id.endpoint_url) + " | GPU " + std::to_string(gpu.id.index) + " | " +
              gpu.id.model_name;
    t.headers = {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"};
    t.justify.assign(t.headers.size(), exporting::Justify::kRight);
    for (const GpuMetricSummary& m : gpu.metrics) {
      const std::string label = m.display + " (" + m.unit + ")";
      if (m.counter) {
        t.rows.push_back({label, exporting::grouped2(m.delta), "N/A", "N/A", "N/A", "N/A", "N/A", "N/A"});
        continue;
      }
      const stats::Summary& s = m.summary;
      t.rows.push_back({label, exporting::grouped2(s.avg), exporting::grouped2(s.min), exporting::grouped2(s.max),
                        exporting::grouped2(percentile(s, 99)), exporting::grouped2(percentile(s, 90)),
                        exporting::grouped2(percentile(s, 50)), exporting::grouped2(s.std)});
    }
    out += "\n" + exporting::render_table(t, unicode_box);
  }
  return out;
}

}  // namespace aiperf::telemetry
