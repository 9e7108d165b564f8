// Telemetry (GPU) and Server Metrics groups (spec §2.1, §6.7, §6.8).
#include <cstdlib>

#include "options.h"

namespace aiperf::cli {
namespace {

bool has_scheme(const std::string& url) { return url.find("://") != std::string::npos; }

// AIPerf: "node1:9401" and "http://node1:9401" both mean http://node1:9401/metrics; a URL that
// already names a path ending in /metrics is kept.
std::string normalize_metrics_url(std::string url) {
  if (!has_scheme(url)) url = "http://" + url;
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (url.size() < 8 || url.compare(url.size() - 8, 8, "/metrics") != 0) url += "/metrics";
  return url;
}

// The server's own metrics live at the root of its --url (scheme://host:port/metrics), whatever
// API path the URL names.
std::string server_metrics_url_for(std::string base) {
  if (!has_scheme(base)) base = "http://" + base;
  const size_t host_start = base.find("://") + 3;
  const size_t path = base.find('/', host_start);
  if (path != std::string::npos) base.resize(path);
  return base + "/metrics";
}

double env_seconds(const char* name, double fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  if (end == v || *end != '\0' || !(d > 0)) throw OptionError(std::string(name) + ": expected seconds > 0, got " + v);
  return d;
}

void add_unique(std::vector<std::string>& list, const std::string& url) {
  for (const auto& u : list)
    if (u == url) return;
  list.push_back(url);
}

}  // namespace

void add_telemetry_options(CLI::App& app, ProfileOptions& o) {
  auto& t = o.telemetry;
  t.gpu_option = app.add_option("--gpu-telemetry", t.gpu_items,
                                "DCGM exporter URLs (host:port or http://host:port/metrics); 'dashboard' accepted. "
                                "Given at all: GPU telemetry table on the console")
                     ->expected(0, -1)
                     ->group("Telemetry");
  app.add_flag("--no-gpu-telemetry", t.no_gpu, "Do not collect GPU telemetry")->group("Telemetry");
  t.server_metrics_option =
      app.add_option("--server-metrics", t.server_metrics, "Extra Prometheus URLs (host:port => http://host:port/metrics)")
          ->expected(0, -1)
          ->group("Server Metrics");
  app.add_flag("--no-server-metrics", t.no_server_metrics, "Do not scrape server metrics")->group("Server Metrics");
  app.add_option("--server-metrics-formats", t.formats, "json, csv, jsonl (default: json csv)")
      ->transform(choice({"json", "csv", "jsonl", "parquet"}))
      ->group("Server Metrics");
}

void finalize_telemetry_options(ProfileOptions& o) {
  auto& t = o.telemetry;
  auto& c = o.config.telemetry;
  const bool gpu_given = t.gpu_option && t.gpu_option->count() > 0;
  const bool server_given = t.server_metrics_option && t.server_metrics_option->count() > 0;
  if (gpu_given && t.no_gpu) throw OptionError("--gpu-telemetry and --no-gpu-telemetry cannot both be set");
  if (server_given && t.no_server_metrics)
    throw OptionError("--server-metrics and --no-server-metrics cannot both be set");

  c.gpu_enabled = !t.no_gpu;
  c.gpu_requested = gpu_given;
  for (const std::string& item : t.gpu_items) {
    if (item == "dashboard") continue;  // the realtime panel belongs to the dashboard UI
    if (item == "pynvml")
      throw OptionError("--gpu-telemetry pynvml: local NVML sampling is not available; run a DCGM exporter "
                        "and pass its URL");
    if (item.size() > 4 && item.compare(item.size() - 4, 4, ".csv") == 0)
      throw OptionError("--gpu-telemetry " + item + ": custom DCGM metric files are not supported");
    add_unique(c.gpu_urls, normalize_metrics_url(item));
  }
  // AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS: comma-separated (a JSON-ish list's brackets and quotes are dropped).
  std::string defaults = "http://localhost:9400/metrics,http://localhost:9401/metrics";
  if (const char* env = std::getenv("AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS")) defaults = env;
  std::string item;
  for (char ch : defaults + ",") {
    if (ch == ',') {
      if (!item.empty()) {
        const std::string url = normalize_metrics_url(item);
        bool user = false;
        for (const auto& u : c.gpu_urls) user = user || u == url;
        if (!user) add_unique(c.gpu_default_urls, url);
      }
      item.clear();
    } else if (ch != '[' && ch != ']' && ch != '"' && ch != '\'' && ch != ' ') {
      item += ch;
    }
  }
  c.gpu_interval_s = env_seconds("AIPERF_GPU_COLLECTION_INTERVAL", c.gpu_interval_s);

  c.server_metrics_enabled = !t.no_server_metrics;
  for (const std::string& url : t.server_metrics) add_unique(c.server_metrics_urls, normalize_metrics_url(url));
  for (const std::string& base : o.config.endpoint.urls) {
    if (base.starts_with("grpc")) continue;  // a gRPC port serves no HTTP /metrics page
    const std::string url = server_metrics_url_for(base);
    bool user = false;
    for (const auto& u : c.server_metrics_urls) user = user || u == url;
    if (!user) add_unique(c.server_metrics_default_urls, url);
  }
  if (!t.formats.empty()) c.server_metrics_formats = t.formats;
  for (const auto& f : c.server_metrics_formats)
    if (f == "parquet") throw OptionError("--server-metrics-formats parquet is not supported (json, csv, jsonl)");
  c.server_metrics_interval_s = env_seconds("AIPERF_SERVER_METRICS_COLLECTION_INTERVAL", c.server_metrics_interval_s);
}

}  // namespace aiperf::cli
