// Telemetry section of RunConfig: GPU telemetry (DCGM exporters) and server metrics
// (Prometheus endpoints of the inference server), spec §2.1 / §6.7 / §6.8.
#pragma once
#include <string>
#include <vector>

#include "config/json_optional.h"

namespace aiperf::config {

struct TelemetryConfig {
  bool gpu_enabled = true;           // false with --no-gpu-telemetry
  bool gpu_requested = false;        // --gpu-telemetry given: console table, warnings
  // DCGM exporter URLs, normalised to http://host:port/metrics. `gpu_urls` are the user's;
  // the defaults (localhost:9400/9401) are tried quietly since nobody asked for them.
  std::vector<std::string> gpu_urls;
  std::vector<std::string> gpu_default_urls;
  double gpu_interval_s = 0.333;     // AIPERF_GPU_COLLECTION_INTERVAL

  bool server_metrics_enabled = true;                    // false with --no-server-metrics
  std::vector<std::string> server_metrics_urls;          // --server-metrics (warned about)
  std::vector<std::string> server_metrics_default_urls;  // each --url base + /metrics (quiet)
  std::vector<std::string> server_metrics_formats = {"json", "csv"};
  double server_metrics_interval_s = 0.333;              // AIPERF_SERVER_METRICS_COLLECTION_INTERVAL

  double scrape_timeout_s = 5.0;     // one GET; an endpoint slower than this counts as unreachable
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TelemetryConfig, gpu_enabled, gpu_requested, gpu_urls,
                                                gpu_default_urls, gpu_interval_s, server_metrics_enabled,
                                                server_metrics_urls, server_metrics_default_urls,
                                                server_metrics_formats, server_metrics_interval_s,
                                                scrape_timeout_s)

}  // namespace aiperf::config
