// GPU telemetry from recorded DCGM exporter pages: field mapping and scaling, window
// statistics, counter deltas, and the three outputs.
#include <catch2/catch.hpp>

#include "common/prometheus/fixture.h"
#include "dcgm_fields.h"
#include "gpu_telemetry.h"

using namespace aiperf::telemetry;

namespace {

const std::string kUrl = "http://127.0.0.1:9400/metrics";

std::string replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Three scrapes: t=100 (before the window), 200, 300. GPU 0's power 312.457 -> 300 -> 330,
// its energy +3.6e9 mJ (3.6 MJ) between the first and the last.
GpuTelemetry three_scrapes() {
  const std::string page = aiperf::test::prometheus_fixture("dcgm_exporter.txt");
  GpuTelemetry t;
  REQUIRE(t.add_scrape(kUrl, 100, page) == 2);
  std::string p2 = replace(page, "} 312.457000", "} 300");
  REQUIRE(t.add_scrape(kUrl, 200, p2) == 2);
  std::string p3 = replace(page, "} 312.457000", "} 330");
  p3 = replace(p3, "} 98765432109", "} 102365432109");
  REQUIRE(t.add_scrape(kUrl, 300, p3) == 2);
  return t;
}

const GpuMetricSummary& metric(const GpuSummary& g, const std::string& key) {
  for (const auto& m : g.metrics)
    if (m.key == key) return m;
  FAIL("no metric " << key);
  throw;
}

}  // namespace

TEST_CASE("every DCGM field maps to a known key, AIPerf 0.13's first and in its order") {
  const auto fields = dcgm_fields();
  std::vector<std::string> aiperf;
  for (const auto& f : fields)
    if (f.aiperf) aiperf.emplace_back(f.key);
  CHECK(aiperf == std::vector<std::string>{"nvidia_power_usage", "nvidia_energy_consumption", "nvidia_gpu_utilization",
                                           "nvidia_memory_utilization", "nvidia_memory_used", "nvidia_temperature",
                                           "nvidia_sm_utilization", "nvidia_decoder_utilization",
                                           "nvidia_encoder_utilization", "nvidia_xid_errors",
                                           "nvidia_power_violation"});
  CHECK(fields[0].display == "NVIDIA GPU Power Usage");
  CHECK(fields[1].scale == 1e-9);
  CHECK(fields[4].key == "nvidia_memory_used");
  CHECK(fields[4].scale == 1.048576e-3);
  CHECK_FALSE(fields[11].aiperf);
  CHECK(fields[11].key == "nvidia_fb_free");  // as AIPerf keys DCGM_FI_DEV_FB_FREE from a custom CSV
  CHECK(find_dcgm_field("DCGM_FI_PROF_SM_ACTIVE")->scale == 100);
  CHECK(find_dcgm_field("DCGM_FI_DEV_XID_ERRORS")->counter);
  CHECK(find_dcgm_field("vllm:num_requests_running") == nullptr);
}

TEST_CASE("a page without DCGM fields adds nothing") {
  GpuTelemetry t;
  CHECK(t.add_scrape(kUrl, 1, aiperf::test::prometheus_fixture("vllm.txt")) == 0);
  CHECK(t.add_scrape(kUrl, 2, "not { prometheus") == 0);
  CHECK_FALSE(t.has_data());
}

TEST_CASE("gauges summarise the readings from the window start, counters their increase") {
  const GpuTelemetry t = three_scrapes();
  const auto gpus = t.summarize(150);
  REQUIRE(gpus.size() == 2);
  const GpuSummary& g0 = gpus[0];
  CHECK(g0.id.index == 0);
  CHECK(g0.id.uuid == "GPU-8c4b2f6e-1a2b-4c3d-9e8f-0a1b2c3d4e5f");
  CHECK(g0.id.model_name == "NVIDIA H100 80GB HBM3");
  CHECK(g0.id.hostname == "dgx-node-07");
  CHECK(g0.id.namespace_name == "inference");
  CHECK(g0.id.pod_name == "vllm-0");
  CHECK(g0.id.platform == "nvidia");
  const auto& power = metric(g0, "nvidia_power_usage");
  CHECK(power.unit == "W");
  CHECK(power.summary.count == 2);  // 300 and 330: the t=100 reading is before the window
  CHECK(power.summary.avg == 315);
  CHECK(power.summary.min == 300);
  CHECK(power.summary.max == 330);
  CHECK(power.summary.std == 15);
  const auto& energy = metric(g0, "nvidia_energy_consumption");
  CHECK(energy.counter);
  CHECK(energy.delta == Approx(3.6).epsilon(1e-12));
  CHECK(metric(g0, "nvidia_memory_used").summary.avg == Approx(76246 * 1.048576e-3).epsilon(1e-15));
  CHECK(metric(g0, "nvidia_sm_utilization").summary.avg == Approx(82.3411).epsilon(1e-12));
  CHECK(metric(g0, "nvidia_temperature").unit == "°C");
  CHECK(metric(gpus[1], "nvidia_xid_errors").delta == 0);
  CHECK(metric(gpus[1], "nvidia_pcie_replay_counter").delta == 0);
  CHECK_FALSE(metric(gpus[1], "nvidia_pcie_replay_counter").aiperf);
  CHECK(metric(gpus[1], "nvidia_power_usage").summary.avg == 287.113);
  // 11 AIPerf fields + 15 of ours are in the fixture (no NVLink TX, one throttle-reason field).
  CHECK(g0.metrics.size() == 25);
}

TEST_CASE("a run shorter than one scrape period reports the last reading before it") {
  const GpuTelemetry t = three_scrapes();
  const auto gpus = t.summarize(1000);
  const auto& power = metric(gpus[0], "nvidia_power_usage");
  CHECK(power.summary.count == 1);
  CHECK(power.summary.avg == 330);
  CHECK(metric(gpus[0], "nvidia_energy_consumption").delta == 0);
}

TEST_CASE("jsonl: one line per GPU per scrape in time order") {
  const std::string jsonl = three_scrapes().jsonl();
  std::vector<nlohmann::json> lines;
  size_t pos = 0;
  while (pos < jsonl.size()) {
    const size_t end = jsonl.find('\n', pos);
    lines.push_back(nlohmann::json::parse(jsonl.substr(pos, end - pos)));
    pos = end + 1;
  }
  REQUIRE(lines.size() == 6);
  CHECK(lines[0]["timestamp_ns"] == 100);
  CHECK(lines[1]["gpu_index"] == 1);
  CHECK(lines[5]["timestamp_ns"] == 300);
  // AIPerf 0.13's TelemetryRecord field order.
  std::vector<std::string> keys;
  const auto first = nlohmann::ordered_json::parse(jsonl.substr(0, jsonl.find('\n')));
  for (const auto& [k, v] : first.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"gpu_index", "gpu_uuid", "gpu_model_name", "pci_bus_id", "device", "hostname",
                                         "namespace", "pod_name", "platform", "timestamp_ns", "telemetry_source_url",
                                         "telemetry_data"});
  CHECK(lines[4]["telemetry_source_url"] == kUrl);
  CHECK(lines[4]["platform"] == "nvidia");
  CHECK(lines[4]["gpu_model_name"] == "NVIDIA H100 80GB HBM3");
  CHECK(lines[4]["pci_bus_id"] == "00000000:18:00.0");
  CHECK(lines[4]["namespace"] == "inference");
  CHECK(lines[4]["pod_name"] == "vllm-0");
  CHECK(lines[4]["telemetry_data"]["nvidia_power_usage"] == 330.0);
  CHECK(lines[4]["telemetry_data"]["nvidia_energy_consumption"].get<double>() == Approx(102.365432109).epsilon(1e-15));
}

TEST_CASE("telemetry_data, CSV section and console table") {
  const auto gpus = three_scrapes().summarize(150);
  const auto j = telemetry_data_json(gpus, {kUrl, "http://localhost:9401/metrics"}, {kUrl}, 1'700'000'000'000'000'000,
                                     1'700'000'010'000'000'000);
  std::vector<std::string> top;
  for (const auto& [k, v] : j.items()) top.push_back(k);
  CHECK(top == std::vector<std::string>{"summary", "endpoints", "error_summary"});
  CHECK(j["error_summary"] == nlohmann::ordered_json::array());
  CHECK(j["summary"]["endpoints_configured"].size() == 2);
  CHECK(j["summary"]["endpoints_successful"][0] == kUrl);
  const auto& g = j["endpoints"]["127.0.0.1:9400"]["gpus"]["gpu_1"];
  std::vector<std::string> gpu_keys;
  for (const auto& [k, v] : g.items()) gpu_keys.push_back(k);
  CHECK(gpu_keys == std::vector<std::string>{"gpu_index", "gpu_name", "gpu_uuid", "platform", "hostname", "namespace",
                                             "pod_name", "metrics"});
  CHECK(g["gpu_index"] == 1);
  CHECK(g["gpu_name"] == "NVIDIA H100 80GB HBM3");
  CHECK(g["platform"] == "nvidia");
  const auto& power = j["endpoints"]["127.0.0.1:9400"]["gpus"]["gpu_0"]["metrics"]["nvidia_power_usage"];
  std::vector<std::string> keys;
  for (const auto& [k, v] : power.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"unit", "avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
                                         "min", "max", "std", "count", "sum"});
  CHECK(power["count"] == 2);
  CHECK(power["sum"] == 630.0);
  CHECK(g["metrics"]["nvidia_energy_consumption"].size() == 2);  // unit + avg (the increase)

  const std::string csv = telemetry_csv_section(gpus);
  CHECK(csv.rfind("\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,"
                  "p90,p95,p99,std,Hostname,Namespace,Pod Name\r\n",
                  0) == 0);
  CHECK(csv.find("127.0.0.1:9400,0,NVIDIA H100 80GB HBM3,GPU-8c4b2f6e-1a2b-4c3d-9e8f-0a1b2c3d4e5f,nvidia,NVIDIA GPU "
                 "Power Usage (W),315.00,300.00,330.00,630.00,300.30,301.50,303.00,307.50,315.00,322.50,327.00,328.50,"
                 "329.70,15.00,dgx-node-07,inference,vllm-0\r\n") != std::string::npos);
  CHECK(csv.find(",nvidia,NVIDIA Energy Consumption (MJ),3.60,,,,,,,,,,,,,,dgx-node-07") != std::string::npos);
  CHECK(csv.find(",nvidia,PCIe Replays (count),0.00,") != std::string::npos);  // our extra fields stay in the files

  const std::string console = telemetry_console(gpus, {kUrl, "http://localhost:9401/metrics"}, {kUrl}, false);
  INFO(console);
  // Rich's Panel(expand=False, padding=(0, 2)): 113 cells inside, the title centred in the border.
  CHECK(console.rfind("\n\n+" + std::string(44, '-') + " GPU Telemetry Platform " + std::string(45, '-') +
                          "+\n|  Platform: nvidia" + std::string(95, ' ') + "|\n",
                      0) == 0);
  // The reachability lines are the first table's title, each centred over it (96 cells wide:
  // left padding (96 - length) / 2, no trailing spaces).
  CHECK(console.find("\n\n" + std::string(33, ' ') + "AIPerf | GPU Telemetry Summary\n" + std::string(32, ' ') +
                     "1/2 telemetry sources reachable\n" + std::string(39, ' ') + "\u2022 127.0.0.1:9400 \u2714\n" +
                     std::string(32, ' ') + "\u2022 localhost:9401 \u2718 (unreachable)\n\n" + std::string(25, ' ') +
                     "127.0.0.1:9400 | GPU 0 | NVIDIA H100 80GB HBM3\n+" + std::string(94, '-') + "+\n") !=
        std::string::npos);
  CHECK(console.find(
            "|     NVIDIA GPU Power Usage (W) | 315.00 | 300.00 | 330.00 | 329.70 | 327.00 | 315.00 | 15.00 |") !=
        std::string::npos);
  CHECK(console.find("127.0.0.1:9400 | GPU 1 | NVIDIA H100 80GB HBM3") != std::string::npos);
  CHECK(console.find("PCIe") == std::string::npos);  // the table lists AIPerf's metrics only
}

TEST_CASE("without any GPU: the CSV header, an empty telemetry_data and the console's no-data message") {
  const auto j = telemetry_data_json({}, {}, {}, 1'700'000'000'000'000'000, 1'700'000'010'000'000'000);
  CHECK(j["endpoints"] == nlohmann::ordered_json::object());
  CHECK(j["summary"]["endpoints_configured"] == nlohmann::ordered_json::array());
  CHECK(telemetry_csv_section({}) ==
        "\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,sum,p1,p5,"
        "p10,p25,p50,p75,p90,p95,p99,std\r\n");
  const std::string console = telemetry_console({}, {kUrl}, {}, true);
  CHECK(console.find("\u2502  Platform: unknown ") != std::string::npos);
  CHECK(console.substr(console.find("\u256f\n")) ==
        "\u256f\n\n\nNo GPU telemetry data collected during the benchmarking run.\n\nUnreachable endpoints:\n"
        "  \u2022 127.0.0.1:9400\n");
}
