// What the telemetry service makes of scraped pages: GPU telemetry (DCGM exporter pages) and
// server metrics (any Prometheus page), each fed the same scrapes, then every export built from
// them (summary JSON sections, CSV, JSONL, console tables). The input holds up to four pages
// separated by a form feed line ("\n\f\n"), scraped 1 s apart; a page that does not parse adds
// nothing. Nothing here may throw: it runs in the telemetry service on whatever a server sent.
// JSON is dumped as telemetry_service.cpp does (invalid UTF-8 in label values replaced).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpu_telemetry.h"
#include "server_metrics.h"

using namespace aiperf::telemetry;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  const std::string url = "http://localhost:9400/metrics";
  const int64_t t0 = 1'700'000'000'000'000'000;
  const int64_t second = 1'000'000'000;

  GpuTelemetry gpus;
  ServerMetrics server("", 0.7);  // --slice-duration 0.7: timeslices over the 1 s scrapes
  int64_t t = t0;
  for (int page = 0; page < 4 && (page == 0 || !rest.empty()); ++page) {
    const size_t sep = rest.find("\n\f\n");
    const std::string_view body = rest.substr(0, sep);
    rest = sep == std::string_view::npos ? std::string_view() : rest.substr(sep + 3);
    t += second;
    (void)gpus.add_scrape(url, t, body);
    (void)server.add_scrape(url, t, t + 1000, 2000, body);
  }

  const std::vector<std::string> configured = {url, "http://localhost:9401/metrics"};
  const std::vector<std::string> successful = {url};
  const auto summaries = gpus.summarize(t0 + second + 1);
  const auto replace = nlohmann::ordered_json::error_handler_t::replace;
  (void)telemetry_data_json(summaries, configured, successful, t0, t).dump(-1, ' ', false, replace);
  (void)telemetry_csv_section(summaries);
  (void)telemetry_console(summaries, configured, successful, true);
  (void)gpus.jsonl();

  ExportHeader header;
  header.aiperf_version = "0.13.0";
  header.benchmark_id = "fuzz";
  (void)server.export_json(header, configured, successful, t0 + second, t).dump(2, ' ', false, replace);
  (void)server.export_csv(header, t0 + second);
  return 0;
}
