// End-to-end: GPU telemetry from the mock server's fake DCGM exporter and server metrics from
// its vLLM-format /metrics land in the summary JSON/CSV and their own files, with values the
// mock can produce, in AIPerf 0.13's layouts (nvidia_* keys, platform, the console saved as
// profile_export_console.txt); an unreachable telemetry URL costs one warning, not the run.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr double kMiBToGB = 1.048576e-3;
constexpr double kH100Mib = 81559;  // the mock's h100-sxm framebuffer

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

std::vector<std::string> base_args(const std::string& url) {
  return {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat", "--streaming",
          "--random-seed", "1", "--url", url, "--concurrency", "4", "--request-count", "30",
          "--output-tokens-mean", "8", "--extra-inputs", "ignore_eos:true"};
}

// 10 requests of 10 tokens at concurrency 2, GPU telemetry from the mock's first exporter.
std::vector<std::string> energy_args(const std::string& url) {
  const std::string dcgm = url + "/dcgm1/metrics";
  return {"--tokenizer",
          "gpt2",
          "--ui-type",
          "none",
          "--model",
          "m",
          "--endpoint-type",
          "chat",
          "--streaming",
          "--random-seed",
          "1",
          "--url",
          url,
          "--concurrency",
          "2",
          "--request-count",
          "10",
          "--output-tokens-mean",
          "10",
          "--extra-inputs",
          "ignore_eos:true",
          "--gpu-telemetry",
          dcgm,
          "--no-server-metrics"};
}

}  // namespace

TEST_CASE("telemetry: DCGM GPU statistics and server metrics that count the run's requests", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "5", "--itl", "2", "--dcgm-gpu-name", "h100-sxm", "--dcgm-num-gpus", "2",
                   "--dcgm-seed", "3"},
                  tmp);
  const std::string dcgm_url = mock.url() + "/dcgm1/metrics";
  std::vector<std::string> args = base_args(mock.url());
  for (const char* a : {"--gpu-telemetry"}) args.push_back(a);
  args.push_back(dcgm_url);
  for (const char* a : {"--server-metrics-formats", "json", "csv", "jsonl"}) args.push_back(a);
  const aiperf::test::ProfileRun run = aiperf::test::run_profile(tmp + "/artifacts", args, tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json summary = run.summary();
  REQUIRE(summary.at("request_count").at("avg") == 30);

  // Summary JSON: both GPUs of the exporter, values inside what an H100 SXM can report.
  const std::string display = "127.0.0.1:" + std::to_string(mock.port()) + "/dcgm1";
  const json& telemetry = summary.at("telemetry_data");
  CHECK(telemetry.at("summary").at("endpoints_successful") == json::array({dcgm_url}));
  // The unreachable defaults (localhost:9400/9401) are not listed, as in AIPerf 0.13.
  CHECK(telemetry.at("summary").at("endpoints_configured") == json::array({dcgm_url}));
  CHECK(telemetry.at("error_summary") == json::array());
  const json& gpus = telemetry.at("endpoints").at(display).at("gpus");
  REQUIRE(gpus.size() == 2);
  for (const char* key : {"gpu_0", "gpu_1"}) {
    INFO(key);
    const json& gpu = gpus.at(key);
    CHECK(gpu.at("gpu_name") == "NVIDIA H100 80GB HBM3");
    CHECK(gpu.at("hostname") == "localhost");
    CHECK(gpu.at("platform") == "nvidia");
    const json& m = gpu.at("metrics");
    const json& power = m.at("nvidia_power_usage");
    CHECK(power.at("unit") == "W");
    CHECK(power.at("count").get<double>() >= 1);
    CHECK(power.at("sum").get<double>() == Approx(power.at("avg").get<double>() * power.at("count").get<double>()));
    CHECK(power.at("min").get<double>() >= 70);
    CHECK(power.at("max").get<double>() <= 700);
    CHECK(power.at("avg").get<double>() >= power.at("min").get<double>());
    const json& util = m.at("nvidia_gpu_utilization");
    CHECK(util.at("unit") == "%");
    CHECK(util.at("min").get<double>() >= 0);
    CHECK(util.at("max").get<double>() <= 100);
    const json& used = m.at("nvidia_memory_used");
    CHECK(used.at("unit") == "GB");
    CHECK(used.at("min").get<double>() >= std::ceil(kH100Mib * 0.55) * kMiBToGB);
    CHECK(used.at("max").get<double>() <= kH100Mib * kMiBToGB);
    CHECK(m.at("nvidia_fb_total").at("avg").get<double>() == Approx(kH100Mib * kMiBToGB).epsilon(1e-12));
    CHECK(m.at("nvidia_fb_total").at("max").get<double>() == kH100Mib * kMiBToGB);
    CHECK(m.at("nvidia_energy_consumption").at("unit") == "MJ");
    CHECK(m.at("nvidia_energy_consumption").at("avg").get<double>() >= 0);
    CHECK(m.at("nvidia_xid_errors").at("avg") == 0);
  }

  // CSV: the GPU section after two blank rows, one row per GPU per metric.
  const std::string csv = aiperf::test::read_file(run.dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,sum,p1,p5,p10,p25,p50,"
                 "p75,p90,p95,p99,std,Hostname\r\n") != std::string::npos);
  CHECK(count_of(csv, display + ",0,NVIDIA H100 80GB HBM3,") == gpus.at("gpu_0").at("metrics").size());
  CHECK(count_of(csv, display + ",1,NVIDIA H100 80GB HBM3,") == gpus.at("gpu_1").at("metrics").size());
  CHECK(csv.find(",nvidia,NVIDIA GPU Power Usage (W),") != std::string::npos);

  // JSONL: at least one line per GPU, all from the one reachable exporter.
  const std::vector<json> lines = run.lines("gpu_telemetry_export.jsonl");
  size_t gpu0 = 0, gpu1 = 0;
  for (const json& l : lines) {
    CHECK(l.at("telemetry_source_url") == dcgm_url);
    CHECK(l.at("platform") == "nvidia");
    (l.at("gpu_index") == 0 ? gpu0 : gpu1)++;
    const double watts = l.at("telemetry_data").at("nvidia_power_usage").get<double>();
    CHECK(watts >= 70);
    CHECK(watts <= 700);
  }
  CHECK(gpu0 >= 1);
  CHECK(gpu0 == gpu1);

  // Server metrics: the mock's /metrics counted exactly the requests of the run.
  const json sm = run.json_file("server_metrics_export.json");
  CHECK(sm.at("benchmark_id") == summary.at("benchmark_id"));
  CHECK(sm.at("summary").at("endpoints_successful") == json::array({mock.url() + "/metrics"}));
  // AIPerf 0.13's family names: a counter's without "_total".
  CHECK_FALSE(sm.at("metrics").contains("vllm:request_success_total"));
  const json& success = sm.at("metrics").at("vllm:request_success");
  CHECK(success.at("type") == "counter");
  REQUIRE(success.at("series").size() == 1);
  CHECK(success.at("series")[0].at("stats").at("total") == 30);
  const json& generated = sm.at("metrics").at("vllm:generation_tokens").at("series")[0].at("stats");
  CHECK(generated.at("total") == 30 * 8);  // ignore_eos: every request generates exactly 8 tokens
  const json& latency = sm.at("metrics").at("vllm:e2e_request_latency_seconds").at("series")[0];
  CHECK(latency.at("stats").at("count") == 30);
  CHECK(latency.at("buckets").at("+Inf") == 30);
  const std::string sm_csv = aiperf::test::read_file(run.dir + "/server_metrics_export.csv");
  CHECK(sm.at("metrics_phase") == "profiling");
  CHECK(sm_csv.rfind("# AIPerf Server Metrics Export (CSV)\n", 0) == 0);
  CHECK(sm_csv.find("\r\n127.0.0.1:" + std::to_string(mock.port()) +
                    ",counter,vllm:request_success,requests,30.0000,") != std::string::npos);
  CHECK(run.lines("server_metrics_export.jsonl").size() >= 2);  // configure scrape + final scrape

  // Console: the platform panel, the GPU tables and the export lines; the same report in box
  // glyphs is saved as profile_export_console.txt.
  CHECK(run.out.find("|  Platform: nvidia ") != std::string::npos);
  CHECK(run.out.find("AIPerf | GPU Telemetry Summary\n") != std::string::npos);
  CHECK(run.out.find("1/1 telemetry sources reachable\n") != std::string::npos);
  CHECK(run.out.find("\u2022 " + display + " \u2714\n") != std::string::npos);
  CHECK(run.out.find(display + " | GPU 1 | NVIDIA H100 80GB HBM3") != std::string::npos);
  CHECK(run.out.find("|     NVIDIA GPU Power Usage (W) |") != std::string::npos);
  const std::string console_txt = aiperf::test::read_file(run.dir + "/profile_export_console.txt");
  CHECK(console_txt.find("NVIDIA AIPerf | LLM Metrics\n\u250f") != std::string::npos);
  CHECK(console_txt.find("\u2502  Platform: nvidia ") != std::string::npos);
  CHECK(console_txt.find("\u2503                         Metric \u2503") != std::string::npos);
  CHECK(console_txt.find("CLI Command") == std::string::npos);  // the report only, as AIPerf's file
  CHECK(run.out.find("GPU Telemetry: " + run.dir + "/gpu_telemetry_export.jsonl") != std::string::npos);
  CHECK(run.out.find("Server Metrics JSON Export: " + run.dir + "/server_metrics_export.json") != std::string::npos);
  CHECK(run.err.find("Warning") == std::string::npos);  // the unreachable defaults are not the user's
}

TEST_CASE("telemetry: an unreachable --gpu-telemetry URL is one warning and the run succeeds", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const std::string dead = "http://127.0.0.1:" + std::to_string(aiperf::test::free_port_range(1)) + "/metrics";
  std::vector<std::string> args = base_args(mock.url());
  args.push_back("--gpu-telemetry");
  args.push_back(dead);
  const aiperf::test::ProfileRun run = aiperf::test::run_profile(tmp + "/artifacts", args, tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(count_of(run.err, "unreachable") == 1);
  CHECK(run.err.find("Warning: GPU telemetry endpoint " + dead + " unreachable") != std::string::npos);
  // As AIPerf 0.13: an empty telemetry_data, the CSV's GPU header, the console's no-data message.
  const json summary = run.summary();
  const json& telemetry = summary.at("telemetry_data");
  CHECK(telemetry.at("summary").at("endpoints_configured") == json::array({dead}));
  CHECK(telemetry.at("summary").at("endpoints_successful") == json::array());
  CHECK(telemetry.at("endpoints") == json::object());
  CHECK(aiperf::test::read_file(run.dir + "/profile_export_aiperf.csv")
            .find("\r\n\r\nEndpoint,GPU_Index,GPU_Name,GPU_UUID,Platform,Metric,avg,min,max,sum,p1,p5,p10,p25,p50,"
                  "p75,p90,p95,p99,std\r\n") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir + "/gpu_telemetry_export.jsonl"));
  CHECK(run.out.find("No GPU telemetry data collected during the benchmarking run.\n\nUnreachable endpoints:\n"
                     "  \u2022 127.0.0.1:") != std::string::npos);
  CHECK(run.out.find("|  Platform: unknown ") != std::string::npos);
  CHECK(run.summary().at("request_count").at("avg") == 30);
  // Server metrics are independent of the GPU side and still arrive.
  CHECK(fs::exists(run.dir + "/server_metrics_export.json"));
  CHECK(fs::exists(run.dir + "/server_metrics_export.csv"));
  CHECK_FALSE(fs::exists(run.dir + "/server_metrics_export.jsonl"));  // not asked for
}

TEST_CASE("telemetry: --no-gpu-telemetry and --no-server-metrics write no telemetry files", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  std::vector<std::string> args = base_args(mock.url());
  args.push_back("--no-gpu-telemetry");
  args.push_back("--no-server-metrics");
  const aiperf::test::ProfileRun run = aiperf::test::run_profile(tmp + "/artifacts", args, tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(fs::exists(run.dir + "/server_metrics_export.json"));
  CHECK_FALSE(fs::exists(run.dir + "/gpu_telemetry_export.jsonl"));
  CHECK_FALSE(run.summary().contains("telemetry_data"));
  CHECK(run.out.find("GPU Telemetry Platform") == std::string::npos);
  CHECK(aiperf::test::read_file(run.dir + "/profile_export_aiperf.csv").find("GPU_Index") == std::string::npos);

  std::vector<std::string> both = base_args(mock.url());
  for (const char* a : {"--gpu-telemetry", "--no-gpu-telemetry"}) both.push_back(a);
  const aiperf::test::ProfileRun bad = aiperf::test::run_profile(tmp + "/bad", both, tmp, "aiperf-bad", 60);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--gpu-telemetry and --no-gpu-telemetry cannot both be set") != std::string::npos);
}

TEST_CASE("telemetry: GPU energy efficiency from the mock's DCGM power and energy counter", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // 1 GPU; requests of about 100 + 9 x 20 ms, 5 rounds at concurrency 2: a window of about
  // 1.4 s, several scrapes long, so the energy counter moves inside it.
  MockServer mock(
      {"--ttft", "100", "--itl", "20", "--dcgm-gpu-name", "h100-sxm", "--dcgm-num-gpus", "1", "--dcgm-seed", "3"}, tmp);
  const std::vector<std::string> args = energy_args(mock.url());
  const aiperf::test::ProfileRun run = aiperf::test::run_profile(tmp + "/artifacts", args, tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json s = run.summary();
  REQUIRE(s.at("total_osl").at("avg") == 100);
  auto avg = [&](const char* tag) { return s.at(tag).at("avg").get<double>(); };
  auto unit = [&](const char* tag) { return s.at(tag).at("unit").get<std::string>(); };

  // The one H100 SXM draws 70..700 W; the counter gave the energy, the run's totals the rest.
  const double energy = avg("nvidia_total_gpu_energy");
  CHECK(unit("nvidia_total_gpu_energy") == "J");
  CHECK(avg("nvidia_total_gpu_power") >= 70);
  CHECK(avg("nvidia_total_gpu_power") <= 700);
  CHECK(avg("nvidia_average_gpu_power") >= 70);
  CHECK(avg("nvidia_average_gpu_power") <= 700 * 1.5);  // energy to the closing scrape over the window
  CHECK(energy > 0);
  CHECK(avg("nvidia_output_tokens_per_joule") == Approx(100 / energy).epsilon(1e-12));
  CHECK(unit("nvidia_output_tokens_per_joule") == "tokens/J");
  CHECK(avg("nvidia_energy_per_output_token") == Approx(energy * 1000 / 100).epsilon(1e-12));
  CHECK(unit("nvidia_energy_per_output_token") == "mJ/token");
  CHECK(avg("nvidia_energy_per_total_token") == Approx(energy * 1000 / (avg("total_isl") + 100)).epsilon(1e-12));
  CHECK(avg("nvidia_energy_per_request") == Approx(energy / 10).epsilon(1e-12));
  CHECK(unit("nvidia_energy_per_request") == "joules/request");
  CHECK(avg("nvidia_energy_per_user") == Approx(energy / 2).epsilon(1e-12));  // --concurrency 2
  CHECK(avg("nvidia_energy_delay_product") == Approx(energy / 10 * avg("request_latency") / 1000).epsilon(1e-12));
  CHECK(avg("nvidia_performance_per_watt") ==
        Approx(avg("request_throughput") / avg("nvidia_average_gpu_power")).epsilon(1e-12));
  CHECK(avg("nvidia_output_tps_per_watt") ==
        Approx(avg("output_token_throughput") / avg("nvidia_average_gpu_power")).epsilon(1e-12));
  CHECK_FALSE(s.contains("nvidia_goodput_per_watt"));  // no --goodput

  // CSV: with the run's single values; console: their own table between the platform panel and
  // the GPU tables, not in the main one.
  const std::string csv = aiperf::test::read_file(run.dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("\r\nInput Token Throughput (tokens/sec),") < csv.find("\r\nAverage GPU Power (W),"));
  CHECK(csv.find("\r\nEnergy per Request (joules/request),") < csv.find("\r\nOSL Mismatch Count,"));
  CHECK(csv.find("\r\nTotal GPU Energy (J),") != std::string::npos);
  const size_t panel = run.out.find("|  Platform: nvidia ");
  const size_t table = run.out.find("GPU Power Efficiency (NVIDIA)\n");
  const size_t gpus = run.out.find("AIPerf | GPU Telemetry Summary\n");
  CHECK(panel < table);
  CHECK(table < gpus);
  CHECK(gpus != std::string::npos);
  CHECK(run.out.find("|    Energy per Output Token (mJ/token) |") != std::string::npos);
  CHECK(count_of(run.out, "Energy per Output Token") == 1);
}
