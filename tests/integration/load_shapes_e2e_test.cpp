// End-to-end load shapes and network latency (AIPerf 0.13 options): --request-rate-series,
// --failed-request-threshold, --burst-phase-starts, --network-latency-automatic / -mean /
// -ping-interval, against the mock server, checking the files the run writes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;
using Run = aiperf::test::ProfileRun;

namespace {

Run profile(std::vector<std::string> args) {
  const std::string tmp = aiperf::test::make_temp_dir();
  std::vector<std::string> full{"--tokenizer", "gpt2", "--model", "m", "--isl", "20", "--osl", "5"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp);
}

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = aiperf::test::make_temp_dir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

std::vector<int64_t> sorted_intended(const Run& run) {
  std::vector<int64_t> t;
  for (const auto& r : run.records()) t.push_back(r["metadata"]["intended_start_ns"].get<int64_t>());
  std::sort(t.begin(), t.end());
  return t;
}

}  // namespace

TEST_CASE("request-rate series: constant arrivals at the first rate, then at the second", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  // 10/s for the first second, then 50/s.
  const std::string series = write_file(
      "series.json", R"({"points": [{"time_s": 0, "qps": 10}, {"time_s": 1, "qps": 10}, {"time_s": 1.001, "qps": 50}, )"
                     R"({"time_s": 9, "qps": 50}]})");
  Run run = profile({"--url", mock.url(), "--request-rate-series", series, "--arrival-pattern", "constant",
                     "--benchmark-duration", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<int64_t> t = sorted_intended(run);
  // At 10/s alone 3 s hold 30 arrivals, at 50/s 150: the series gives ~10 + ~100.
  REQUIRE(t.size() > 60);
  CHECK(t.size() < 150);
  // The schedule is absolute: intended times are exactly one interval of the rate in force apart.
  CHECK(t[1] - t[0] == 100'000'000);
  CHECK(t[2] - t[1] == 100'000'000);
  CHECK(t[t.size() - 1] - t[t.size() - 2] == 20'000'000);
  CHECK(t[t.size() - 2] - t[t.size() - 3] == 20'000'000);
  // The artifact directory's stimulus would read request_rate10.0 (the series' first rate).
  CHECK(run.summary()["request_count"]["avg"].get<size_t>() == t.size());
}

TEST_CASE("request-rate series: refused with --request-rate and for a bad file", "[e2e][load]") {
  const std::string one_point = write_file("one.json", R"([{"time_s": 0, "qps": 1}])");
  Run a = profile({"--request-rate-series", one_point});
  CHECK(a.exit_code == 2);
  CHECK(a.err.find("Error: --request-rate-series: Request-rate series requires at least two points") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(a.dir));
  const std::string ok = write_file("ok.json", R"([{"time_s": 0, "qps": 1}, {"time_s": 1, "qps": 2}])");
  Run b = profile({"--request-rate-series", ok, "--request-rate", "5"});
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("Error: --request-rate and --request-rate-series are mutually exclusive.") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(b.dir));
}

TEST_CASE("failed-request threshold: a run failing past the ratio is cancelled and exits 1", "[e2e][load]") {
  MockServer mock({"--fast", "--error-rate", "50", "--random-seed", "1"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--concurrency", "2", "--request-count", "200",
                     "--failed-request-threshold", "0.2"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(run.err.find("Error: --failed-request-threshold exceeded: ") != std::string::npos);
  CHECK(run.err.find("> 0.200 (grace floor 10): run cancelled") != std::string::npos);
  const auto recs = run.records();
  CHECK(recs.size() >= 10);   // the grace floor
  CHECK(recs.size() < 200);   // cancelled early
  const json summary = run.summary();
  CHECK(summary["was_cancelled"] == true);
  const size_t ok = summary.value("request_count", json{{"avg", 0}})["avg"].get<size_t>();
  CHECK(ok + summary["error_request_count"]["avg"].get<size_t>() == recs.size());

  // The same server under a threshold it never exceeds: the whole run, exit 0.
  Run lenient = profile({"--url", mock.url(), "--concurrency", "2", "--request-count", "30",
                         "--failed-request-threshold", "1"});
  INFO(lenient.out << lenient.err);
  CHECK(lenient.exit_code == 0);
  CHECK(lenient.records().size() == 30);
  CHECK(lenient.summary()["was_cancelled"] == false);
}

TEST_CASE("burst phase starts: the flag is accepted (it shapes agentic replay only)", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--concurrency", "2", "--request-count", "6", "--burst-phase-starts"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.records().size() == 6);
}

TEST_CASE("network latency automatic: probes in their JSONL file, their mean subtracted", "[e2e][network]") {
  MockServer mock({"--ttft", "20", "--itl", "2"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "10",
                     "--network-latency-automatic", "--network-latency-ping-interval", "0.2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto probes = run.lines("profile_export_network_latency.jsonl");
  REQUIRE(probes.size() >= 5);  // topped up to 5 successes at the end
  double sum_ns = 0;
  for (const auto& p : probes) {
    CHECK(p["target_url"] == mock.url());
    CHECK(p["target_host"] == "127.0.0.1");
    CHECK(p["target_port"] == mock.port());
    CHECK(p["probe_type"] == "tcp_connect");
    CHECK(p["success"] == true);
    CHECK(p["timestamp_ns"].get<int64_t>() > 0);
    sum_ns += p["rtt_ns"].get<double>();
  }
  const double rtt_ms = sum_ns / static_cast<double>(probes.size()) / 1e6;
  const json s = run.summary();
  REQUIRE(s.contains("network_rtt"));
  CHECK(s["network_rtt"]["unit"] == "ms");
  CHECK(s["network_rtt"]["avg"].get<double>() == Approx(rtt_ms).epsilon(1e-9));
  CHECK(s["network_rtt"]["std"].get<double>() == 0.0);
  CHECK_FALSE(s["network_rtt"].contains("count"));  // as the reference: injected results have none
  // Loopback RTTs are far below the 20 ms TTFT: no record is clamped, the mean shifts by the RTT.
  for (const char* tag : {"request_latency", "time_to_first_token", "time_to_first_output_token"}) {
    INFO(tag);
    const std::string adjusted = std::string("network_adjusted_") + tag;
    REQUIRE(s.contains(adjusted));
    CHECK(s[adjusted]["avg"].get<double>() == Approx(s[tag]["avg"].get<double>() - rtt_ms).epsilon(1e-9));
    CHECK(s[adjusted]["std"].get<double>() == Approx(s[tag]["std"].get<double>()).epsilon(1e-6));
  }
  CHECK_FALSE(s.contains("network_adjusted_inter_token_latency"));
  // The CSV has the rows, in its statistics section.
  std::ifstream csv(run.dir + "/profile_export_aiperf.csv");
  const std::string text((std::istreambuf_iterator<char>(csv)), std::istreambuf_iterator<char>());
  CHECK(text.find("\nNetwork RTT (ms),") != std::string::npos);
  CHECK(text.find("\nNetwork-Adjusted Request Latency (ms),") != std::string::npos);
}

TEST_CASE("network latency mean: a fixed RTT is subtracted and nothing is probed", "[e2e][network]") {
  MockServer mock({"--ttft", "20", "--itl", "2"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "10",
                     "--network-latency-mean", "5", "--slice-duration", "60"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(run.dir + "/profile_export_network_latency.jsonl"));
  const json s = run.summary();
  CHECK(s["network_rtt"]["avg"].get<double>() == 5.0);
  // Every timeslice reports them too (a 60 s slice holds this whole run, or two of them).
  const json slices = run.json_file("profile_export_aiperf_timeslices.json")["timeslices"];
  REQUIRE_FALSE(slices.empty());
  for (const auto& slice : slices) {
    CHECK(slice["network_rtt"]["avg"].get<double>() == 5.0);
    CHECK(slice["network_adjusted_time_to_first_token"]["avg"].get<double>() ==
          Approx(slice["time_to_first_token"]["avg"].get<double>() - 5.0).epsilon(1e-9));
  }
  CHECK(s["network_adjusted_time_to_first_token"]["avg"].get<double>() ==
        Approx(s["time_to_first_token"]["avg"].get<double>() - 5.0).epsilon(1e-9));
  CHECK(s["network_adjusted_time_to_first_token"]["min"].get<double>() ==
        Approx(s["time_to_first_token"]["min"].get<double>() - 5.0).epsilon(1e-9));

  // Without either option there is no adjustment at all.
  Run plain = profile({"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "4"});
  REQUIRE(plain.exit_code == 0);
  CHECK_FALSE(plain.summary().contains("network_rtt"));
  CHECK_FALSE(plain.summary().contains("network_adjusted_request_latency"));
}
