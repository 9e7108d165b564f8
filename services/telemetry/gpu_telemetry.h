// GpuTelemetry: the DCGM scrapes of a run, per endpoint and GPU, and what AIPerf makes of them
// (spec §6.7, §7.3, §7.4): statistics over the profiling window (gauges: avg/min/max/
// percentiles/std; counters: the delta from the last reading before the window to the last
// reading), the summary JSON's telemetry_data, the CSV section, gpu_telemetry_export.jsonl and
// the console tables. Not thread-safe: the owner serialises access.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "metrics/energy_efficiency.h"
#include "stats/stats.h"

namespace aiperf::telemetry {

struct GpuIdentity {
  std::string endpoint_url;
  int index = 0;
  std::string uuid, model_name, pci_bus_id, device, hostname, namespace_name, pod_name;
  std::string platform;  // AIPerf 0.13's vendor namespace: "nvidia" for a DCGM exporter's GPU
};

struct GpuReading {
  int64_t wall_ns = 0;
  std::map<std::string, double> values;  // metric key -> value in display units
};

struct GpuMetricSummary {
  std::string key, display, unit;
  bool counter = false;
  bool aiperf = true;      // one of AIPerf's own metrics (the console shows only these)
  double delta = 0;        // counters
  stats::Summary summary;  // gauges
};

struct GpuSummary {
  GpuIdentity id;
  std::vector<GpuMetricSummary> metrics;  // in dcgm_fields() order, only metrics seen
};

class GpuTelemetry {
 public:
  // Parses one scrape of `url`. Returns the number of GPUs it described: 0 for a page that is
  // not a DCGM exporter's (or does not parse), which then adds nothing.
  size_t add_scrape(const std::string& url, int64_t wall_ns, std::string_view body);

  bool has_data() const { return !gpus_.empty(); }
  bool endpoint_has_data(const std::string& url) const;

  // Per GPU (endpoints in first-seen order, GPUs by index) over the window starting at
  // `start_ns`; every later reading counts (the final scrape comes after the window's end).
  std::vector<GpuSummary> summarize(int64_t start_ns) const;

  // The platforms ("nvidia", ...) of the GPUs seen, sorted.
  std::vector<std::string> platforms() const;

  // AIPerf 0.13's energy and power of `platform`'s GPUs (GPUTelemetryAccumulator's
  // total_energy_joules / total_power_watts): per GPU, the mean power of the readings in
  // [start_ns, end_ns] and the energy counter's increase from the last reading before start_ns
  // (else the first in the window) to the last reading in [start_ns, end_ns + grace_ns]
  // (negative = a reset: 0), summed over GPUs; a GPU without readings in the window adds nothing.
  metrics::GpuEnergyTotals energy_totals(std::string_view platform, int64_t start_ns, int64_t end_ns,
                                         int64_t grace_ns) const;

  // First and last scrape time of any GPU (0, 0 without data).
  std::pair<int64_t, int64_t> scrape_span() const;

  // One JSON object per GPU per scrape, each line ending in '\n', keyed as AIPerf 0.13's
  // TelemetryRecord: gpu_index, gpu_uuid, gpu_model_name, pci_bus_id, device, hostname,
  // namespace, pod_name (each only when known), platform, timestamp_ns, telemetry_source_url,
  // telemetry_data.
  std::string jsonl() const;

 private:
  struct Gpu {
    GpuIdentity id;
    std::vector<GpuReading> readings;
  };
  std::vector<Gpu> gpus_;                    // in first-seen order
  std::map<std::string, size_t> index_;      // endpoint + uuid -> gpus_ index
};

// The summary JSON's "telemetry_data" object (AIPerf 0.13): summary, endpoints (per GPU:
// gpu_index, gpu_name, gpu_uuid, platform, hostname, [namespace], [pod_name], metrics; a gauge
// as unit, avg, p1..p99, min, max, std, count, sum; a counter as unit and avg = its increase),
// error_summary (always empty: a scrape failure is not a request error). `gpus` may be empty.
nlohmann::ordered_json telemetry_data_json(const std::vector<GpuSummary>& gpus,
                                           const std::vector<std::string>& configured,
                                           const std::vector<std::string>& successful, int64_t start_ns,
                                           int64_t end_ns);

// The GPU section appended to profile_export_aiperf.csv (AIPerf 0.13), CRLF rows, starting with
// the blank row that makes two blank rows after the summary: Endpoint, GPU_Index, GPU_Name,
// GPU_UUID, Platform, Metric, avg, min, max, sum, p1..p99, std, then Hostname / Namespace /
// Pod Name when any GPU has them. With no GPU, the header row alone (as the reference).
std::string telemetry_csv_section(const std::vector<GpuSummary>& gpus);

// The console's GPU part (AIPerf 0.13): the "GPU Telemetry Platform" panel, then one table per
// GPU of AIPerf's own metrics, the first titled "AIPerf | GPU Telemetry Summary" with the
// reachability lines (centred over the table, as Rich titles), or "No GPU telemetry data
// collected during the benchmarking run." and the unreachable endpoints when no GPU answered.
// `efficiency_tables` (power_efficiency_console's) go between the panel and the GPU tables, as
// AIPerf 0.13 prints them, then `server_tables` (sglang_spec_decode_console's).
std::string telemetry_console(const std::vector<GpuSummary>& gpus, const std::vector<std::string>& configured,
                              const std::vector<std::string>& successful, bool unicode_box,
                              const std::string& efficiency_tables = "", const std::string& server_tables = "");

// AIPerf 0.13's "GPU Power Efficiency (NVIDIA)" table (or "(AMD)"): the energy-efficiency
// metrics of `platform` (tags "<platform>_*" in `metrics`), by display order, value column
// "avg" only; "" when there are none.
std::string power_efficiency_console(std::string_view platform, const std::vector<proto::MetricResult>& metrics,
                                     bool unicode_box);

}  // namespace aiperf::telemetry
