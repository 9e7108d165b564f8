// TelemetryCore's rules on a fake scraper and fake timers: which targets are scraped (user URLs,
// then the defaults, per enabled kind), configure answered after the baseline, one warning per
// dead user-given endpoint and none for a dead default, the final scrape at the run's results
// (only the endpoints that answered, within 0.5 s) and the TelemetryResults it yields.
#include "telemetry_core.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/client_server.h"
#include "fakes/fake_scraper.h"
#include "fakes/manual_timers.h"

using namespace aiperf;
using telemetry::TelemetryCore;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kStartWall = 1'700'000'000 * kS;  // the profiling window: 10 s from here
const std::string kGpuUser = "http://gpu-a:9400/metrics";
const std::string kGpuDefault = "http://localhost:9400/metrics";
const std::string kServerUser = "http://server-a:8000/metrics";
const std::string kServerDefault = "http://localhost:8000/metrics";

struct Output : telemetry::TelemetryOutput {
  int baselines = 0;
  std::vector<proto::TelemetryResults> published;
  void baseline_done() override { ++baselines; }
  void results(const proto::TelemetryResults& r) override { published.push_back(r); }
};

std::string dcgm_page(double power_w) {
  return "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
         "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-1\",modelName=\"NVIDIA H100\",Hostname=\"node-1\"} " +
         std::to_string(power_w) + "\n";
}

std::string llama_page(int prompt_tokens, int predicted_tokens) {
  return "# TYPE llamacpp:prompt_tokens_total counter\nllamacpp:prompt_tokens_total " + std::to_string(prompt_tokens) +
         "\n# TYPE llamacpp:tokens_predicted_total counter\nllamacpp:tokens_predicted_total " +
         std::to_string(predicted_tokens) + "\n";
}

proto::ProfileResults profile_results() {
  proto::ProfileResults r;
  r.set_start_ns(kStartWall);
  r.set_end_ns(kStartWall + 10 * kS);
  return r;
}

struct Fixture {
  fs::path dir = fs::temp_directory_path() / ("telemetry_core_test_" + std::to_string(::getpid()));
  testing::ManualTimers timers;
  testing::FakeScraper scraper;
  Output output;
  config::RunConfig config;
  TelemetryCore core{timers, scraper, output};

  // Every kind on, a user URL and a default of each, formats json and csv.
  Fixture() {
    fs::remove_all(dir);
    fs::create_directories(dir);
    config.output.artifact_dir = dir.string();
    auto& t = config.telemetry;
    t.gpu_urls = {kGpuUser};
    t.gpu_default_urls = {kGpuDefault};
    t.server_metrics_urls = {kServerUser};
    t.server_metrics_default_urls = {kServerDefault};
    t.gpu_interval_s = 0.25;
    t.server_metrics_interval_s = 0.5;
    t.scrape_timeout_s = 2.0;
  }
  ~Fixture() { fs::remove_all(dir); }
  void configure_and_start() {
    REQUIRE(core.configure(config));
    core.start();
  }
};

const std::vector<std::string> kWarningsNoneAnswered = {
    "GPU telemetry endpoint http://gpu-a:9400/metrics unreachable (ClientConnectorError: Connection refused); no "
    "metrics from it",
    "server metrics endpoint http://server-a:8000/metrics unreachable (no response); no metrics from it"};

}  // namespace

TEST_CASE("telemetry core: user URLs then defaults, GPU before server, each with its period") {
  Fixture f;
  f.configure_and_start();
  CHECK(f.scraper.starts() == 1);
  CHECK(f.scraper.timeout_s() == 2.0);
  const auto& targets = f.scraper.targets();
  REQUIRE(targets.size() == 4);
  CHECK(targets[0].url == kGpuUser);
  CHECK(targets[1].url == kGpuDefault);
  CHECK(targets[2].url == kServerUser);
  CHECK(targets[3].url == kServerDefault);
  CHECK(targets[0].period_ns == 250 * kMs);
  CHECK(targets[1].period_ns == 250 * kMs);
  CHECK(targets[2].period_ns == 500 * kMs);
  CHECK(targets[3].period_ns == 500 * kMs);
  const auto states = f.core.targets();
  CHECK(states[0].user_given);
  CHECK_FALSE(states[1].user_given);
  CHECK(states[2].user_given);
  CHECK_FALSE(states[3].user_given);
}

TEST_CASE("telemetry core: a disabled kind has no targets; none at all means no wait and no scraper") {
  Fixture f;
  f.config.telemetry.server_metrics_enabled = false;
  f.configure_and_start();
  REQUIRE(f.scraper.targets().size() == 2);
  CHECK(f.scraper.targets()[1].url == kGpuDefault);

  Fixture none;
  none.config.telemetry.gpu_enabled = false;
  none.config.telemetry.server_metrics_enabled = false;
  CHECK_FALSE(none.core.configure(none.config));
  none.core.on_profile_results(profile_results());
  CHECK(none.scraper.starts() == 0);
  CHECK(none.scraper.final_scrapes() == 0);
  REQUIRE(none.output.published.size() == 1);  // at once: nothing to scrape
  CHECK(none.output.published[0].telemetry_data_json().empty());
  CHECK(none.output.published[0].warnings_size() == 0);
}

TEST_CASE("telemetry core: the baseline is in once every target's first scrape completed") {
  Fixture f;
  f.configure_and_start();
  f.scraper.answer(0, kStartWall - kS, dcgm_page(300));
  f.scraper.fail(1, kStartWall - kS, "ClientConnectorError: Connection refused");
  f.scraper.answer(2, kStartWall - kS, llama_page(11, 7));
  CHECK(f.output.baselines == 0);  // the default server URL has not answered yet
  f.scraper.fail(3, kStartWall - kS, "TimeoutError");
  f.scraper.first_round_done();
  CHECK(f.output.baselines == 1);
  const auto states = f.core.targets();
  CHECK(states[0].ok);
  CHECK_FALSE(states[1].ok);
  CHECK(states[1].last_error == "ClientConnectorError: Connection refused");
  CHECK(states[2].ok);
  CHECK_FALSE(states[3].ok);
}

TEST_CASE("telemetry core: one warning per dead user-given endpoint, none for a dead default") {
  Fixture f;
  f.configure_and_start();
  for (int i = 0; i < 3; ++i) {  // failing again and again is still one warning
    f.scraper.fail(0, kStartWall + i * kS, i < 2 ? "TimeoutError" : "ClientConnectorError: Connection refused");
    f.scraper.fail(1, kStartWall + i * kS, "ClientConnectorError: Connection refused");
    f.scraper.fail(3, kStartWall + i * kS, "ClientConnectorError: Connection refused");
  }
  f.scraper.first_round_done();
  f.core.on_profile_results(profile_results());
  CHECK(f.scraper.final_targets().empty());  // nobody answered: nobody is asked again
  f.scraper.final_done();
  REQUIRE(f.output.published.size() == 1);
  const proto::TelemetryResults& r = f.output.published[0];
  CHECK(std::vector<std::string>(r.warnings().begin(), r.warnings().end()) == kWarningsNoneAnswered);
  // Only the GPU endpoint the user named is "configured"; the silent default is not.
  const auto data = nlohmann::json::parse(r.telemetry_data_json());
  CHECK(data["summary"]["endpoints_configured"] == nlohmann::json::array({kGpuUser}));
  CHECK(data["summary"]["endpoints_successful"].empty());
  CHECK(r.server_counters_json().empty());
  CHECK(r.export_lines_size() == 0);
  CHECK_FALSE(fs::exists(f.dir / "server_metrics_export.json"));
}

TEST_CASE("telemetry core: a page that is not an exporter's counts as a failure with its reason") {
  Fixture f;
  f.config.telemetry.gpu_default_urls.clear();
  f.config.telemetry.server_metrics_default_urls.clear();
  f.configure_and_start();
  f.scraper.answer(0, kStartWall, llama_page(1, 1));  // Prometheus text, but no DCGM field
  f.scraper.answer(1, kStartWall, "<html>not metrics</html>");
  f.core.on_profile_results(profile_results());
  f.scraper.final_done();
  REQUIRE(f.output.published.size() == 1);
  const auto& w = f.output.published[0].warnings();
  CHECK(std::vector<std::string>(w.begin(), w.end()) ==
        std::vector<std::string>{"GPU telemetry endpoint http://gpu-a:9400/metrics unreachable (no DCGM GPU metrics "
                                 "in the response); no metrics from it",
                                 "server metrics endpoint http://server-a:8000/metrics unreachable (not Prometheus "
                                 "text); no metrics from it"});
}

TEST_CASE("telemetry core: the final scrape asks the endpoints that answered, and its counters close the window") {
  Fixture f;
  f.configure_and_start();
  f.scraper.answer(0, kStartWall - kS, dcgm_page(300));
  f.scraper.fail(1, kStartWall - kS, "ClientConnectorError: Connection refused");
  f.scraper.answer(2, kStartWall - kS, llama_page(11, 7));  // the baseline, before the window
  f.scraper.fail(3, kStartWall - kS, "ClientConnectorError: Connection refused");
  f.scraper.first_round_done();
  f.scraper.answer(0, kStartWall + 5 * kS, dcgm_page(320));

  f.core.on_profile_results(profile_results());
  CHECK(f.scraper.final_targets() == std::vector<size_t>{0, 2});
  CHECK(f.scraper.final_timeout_s() == 0.5);  // min(--scrape-timeout 2, 0.5)
  CHECK(f.output.published.empty());          // waits for the final scrape
  f.scraper.answer(0, kStartWall + 10 * kS + kMs, dcgm_page(340));
  f.scraper.answer(2, kStartWall + 10 * kS + kMs, llama_page(51, 27));
  f.scraper.final_done();
  CHECK(f.scraper.stops() == 1);
  REQUIRE(f.output.published.size() == 1);
  const proto::TelemetryResults& r = f.output.published[0];
  CHECK(r.warnings_size() == 0);  // the dead endpoints are defaults: quiet

  const auto totals = exporting::counter_totals_from_json(r.server_counters_json());
  REQUIRE(totals);
  CHECK(totals->family == "llamacpp");
  CHECK(*totals->prompt_tokens == 40);      // 51 - 11
  CHECK(*totals->generation_tokens == 20);  // 27 - 7

  const auto data = nlohmann::json::parse(r.telemetry_data_json());
  CHECK(data["summary"]["endpoints_configured"] == nlohmann::json::array({kGpuUser}));
  CHECK(data["summary"]["endpoints_successful"] == nlohmann::json::array({kGpuUser}));
  const auto& power = data["endpoints"]["gpu-a:9400"]["gpus"]["gpu_0"]["metrics"]["nvidia_power_usage"];
  CHECK(power["avg"] == 330.0);  // the readings in the window: 320 and the final 340
  CHECK(power["min"] == 320.0);
  CHECK(power["max"] == 340.0);

  CHECK(std::vector<std::string>(r.export_lines().begin(), r.export_lines().end()) ==
        std::vector<std::string>{"GPU Telemetry: " + (f.dir / "gpu_telemetry_export.jsonl").string(),
                                 "Server Metrics JSON Export: " + (f.dir / "server_metrics_export.json").string(),
                                 "Server Metrics CSV Export: " + (f.dir / "server_metrics_export.csv").string()});
  CHECK(fs::exists(f.dir / "server_metrics_export.json"));
  CHECK(fs::exists(f.dir / "server_metrics_export.csv"));

  f.core.on_profile_results(profile_results());  // a second ProfileResults changes nothing
  CHECK(f.scraper.final_scrapes() == 1);
  CHECK(f.output.published.size() == 1);
  CHECK(f.timers.pending() == 0);  // the deadline was cancelled
}

TEST_CASE("telemetry core: without the final scrape the results go out 0.1 s after its deadline") {
  Fixture f;
  f.config.telemetry.scrape_timeout_s = 0.2;
  f.configure_and_start();
  f.scraper.answer(2, kStartWall - kS, llama_page(11, 7));
  f.scraper.first_round_done();
  f.core.on_profile_results(profile_results());
  CHECK(f.scraper.final_timeout_s() == 0.2);
  f.timers.advance_by(299 * kMs);
  CHECK(f.output.published.empty());
  f.timers.advance_by(1 * kMs);  // 0.2 s + 0.1 s
  REQUIRE(f.output.published.size() == 1);
  CHECK(f.scraper.stops() == 1);
  f.scraper.final_done();  // late: changes nothing
  CHECK(f.output.published.size() == 1);
}

TEST_CASE("telemetry core: GPU energy efficiency from the window's energy counter and the run's totals") {
  Fixture f;
  f.config.telemetry.server_metrics_urls.clear();
  f.config.telemetry.server_metrics_default_urls.clear();
  f.config.telemetry.gpu_default_urls.clear();
  f.config.loadgen.concurrency = 2;
  f.configure_and_start();
  // Power 300 W then 340 W in the 10 s window; the energy counter (mJ) from 1e6 before the
  // window to 4.2e6 at the final scrape: 3200 J.
  auto page = [](double power_w, double energy_mj) {
    return dcgm_page(power_w) +
           "# TYPE DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION counter\n"
           "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{gpu=\"0\",UUID=\"GPU-1\",modelName=\"NVIDIA H100\"} " +
           std::to_string(energy_mj) + "\n";
  };
  f.scraper.answer(0, kStartWall - kS, page(100, 1'000'000));
  f.scraper.first_round_done();
  f.scraper.answer(0, kStartWall + 5 * kS, page(300, 2'500'000));
  proto::ProfileResults results = profile_results();
  auto add = [&](const std::string& tag, double avg) {
    auto* m = results.add_records();
    m->set_tag(tag);
    m->set_avg(avg);
  };
  add("request_count", 16);
  add("total_osl", 1600);
  add("total_isl", 800);
  add("request_latency", 1250);  // ms
  add("request_throughput", 1.6);
  add("output_token_throughput", 160);
  f.core.on_profile_results(results);
  f.scraper.answer(0, kStartWall + 10 * kS + 100 * kMs, page(340, 4'200'000));  // in the 0.666 s grace
  f.scraper.final_done();
  REQUIRE(f.output.published.size() == 1);
  const proto::TelemetryResults& r = f.output.published[0];
  std::vector<std::pair<std::string, double>> got;
  for (const auto& m : r.efficiency_metrics()) got.emplace_back(m.tag(), m.avg());
  const std::vector<std::pair<std::string, double>> expected = {
      {"nvidia_total_gpu_power", 300},    // the readings in [start, end]: only the 300 W one
      {"nvidia_average_gpu_power", 320},  // 3200 J / 10 s
      {"nvidia_total_gpu_energy", 3200},
      {"nvidia_output_tokens_per_joule", 0.5},   // 1600 / 3200
      {"nvidia_energy_per_output_token", 2000},  // 3200e3 mJ / 1600
      {"nvidia_energy_per_total_token", 3200e3 / 2400},
      {"nvidia_energy_per_request", 200},    // 3200 / 16
      {"nvidia_energy_per_user", 1600},      // 3200 / 2
      {"nvidia_energy_delay_product", 250},  // 200 J x 1.25 s
      {"nvidia_performance_per_watt", 1.6 / 320},
      {"nvidia_output_tps_per_watt", 0.5},  // 160 / 320
  };
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO(expected[i].first);
    CHECK(got[i].first == expected[i].first);
    CHECK(got[i].second == Approx(expected[i].second).epsilon(1e-12));
  }
  // Their console table sits between the platform panel and the GPU tables.
  const std::string& console = r.console_ascii();
  const size_t panel = console.find("GPU Telemetry Platform");
  const size_t table = console.find("GPU Power Efficiency (NVIDIA)");
  const size_t gpus = console.find("AIPerf | GPU Telemetry Summary");
  CHECK(panel < table);
  CHECK(table < gpus);
  CHECK(gpus != std::string::npos);
  CHECK(console.find("|                  Total GPU Energy (J) | 3,200.00 |") != std::string::npos);
}

TEST_CASE("telemetry core: server_metrics_export.jsonl tags each scrape with the phase it started in") {
  Fixture f;
  f.config.telemetry.gpu_enabled = false;
  f.config.telemetry.server_metrics_formats = {"jsonl"};
  f.configure_and_start();
  auto phase_event = [&](proto::PhaseEventKind kind, proto::Phase phase, int64_t start_ns, int64_t end_ns) {
    proto::PhaseEvent e;
    e.set_kind(kind);
    e.set_phase(phase);
    e.set_start_wall_ns(start_ns);
    e.set_end_wall_ns(end_ns);
    f.core.on_phase_event(e);
  };
  const int64_t warmup_start = kStartWall - 4 * kS, warmup_end = kStartWall - 2 * kS;
  f.scraper.answer(0, kStartWall - 5 * kS, llama_page(1, 1));  // the baseline: no phase yet
  f.scraper.first_round_done();
  phase_event(proto::PHASE_EVENT_START, proto::PHASE_WARMUP, warmup_start, 0);
  f.scraper.answer(0, warmup_start - kMs, llama_page(2, 2));  // requested before the warmup started
  f.scraper.answer(0, warmup_start + kS, llama_page(3, 3));
  phase_event(proto::PHASE_EVENT_COMPLETE, proto::PHASE_WARMUP, warmup_start, warmup_end);
  f.scraper.answer(0, warmup_end + kMs, llama_page(4, 4));  // between the phases: none
  phase_event(proto::PHASE_EVENT_START, proto::PHASE_PROFILING, kStartWall, 0);
  f.scraper.answer(0, kStartWall + kS, llama_page(5, 5));
  phase_event(proto::PHASE_EVENT_COMPLETE, proto::PHASE_PROFILING, kStartWall, kStartWall + 10 * kS);
  f.core.on_profile_results(profile_results());
  f.scraper.answer(0, kStartWall + 10 * kS + kMs, llama_page(6, 6));  // the final scrape: profiling's
  f.scraper.final_done();
  REQUIRE(f.output.published.size() == 1);

  std::ifstream in(f.dir / "server_metrics_export.jsonl");
  std::vector<std::string> tags;
  for (std::string line; std::getline(in, line);) {
    const auto j = nlohmann::ordered_json::parse(line);
    std::string tag;
    for (const char* key : {"benchmark_phase", "phase_index", "profiling_index", "phase_name", "phase_kind"})
      if (j.contains(key)) tag += std::string(tag.empty() ? "" : " ") + key + "=" + j[key].dump();
    tags.push_back(tag);
  }
  const std::string profiling =
      R"(benchmark_phase="profiling" phase_index=1 profiling_index=0 phase_name="profiling" phase_kind="profiling")";
  CHECK(tags == std::vector<std::string>{
                    "", "", R"(benchmark_phase="warmup" phase_index=0 phase_name="warmup" phase_kind="warmup")", "",
                    profiling, profiling});
}
