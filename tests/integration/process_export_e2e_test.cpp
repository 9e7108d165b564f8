// End-to-end: `aiperf process-export-files` merges the per-record files of two real runs and
// its summary equals statistics recomputed from those records; merging one run reproduces
// that run's own summary.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

aiperf::test::ProfileRun profile(const std::string& tmp, const MockServer& mock, const std::string& name,
                                 const std::string& count) {
  return aiperf::test::run_profile(
      tmp + "/" + name,
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat", "--url", mock.url(),
       "--streaming", "--concurrency", "4", "--request-count", count, "--output-tokens-mean", "4", "--extra-inputs",
       "ignore_eos:true", "--random-seed", "1"},
      tmp, name);
}

struct Merge {
  int exit_code = -1;
  std::string out, err;
};

Merge merge(const std::string& tmp, const std::vector<std::string>& args) {
  std::vector<std::string> full{"process-export-files"};
  full.insert(full.end(), args.begin(), args.end());
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", full, tmp, "merge");
  const auto rc = p.wait(60);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

// Values of one scalar metric over every record line of the given runs.
std::vector<double> values(const std::vector<std::vector<json>>& runs, const std::string& tag) {
  std::vector<double> out;
  for (const auto& records : runs) {
    for (const json& r : records) {
      if (r["metrics"].contains(tag)) out.push_back(r["metrics"][tag]["value"].get<double>());
    }
  }
  return out;
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

}  // namespace

TEST_CASE("process-export-files: two runs of 20 and 30 requests merge into one summary of 50", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  auto a = profile(tmp, mock, "run20", "20");
  auto b = profile(tmp, mock, "run30", "30");
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const std::string out_dir = tmp + "/merged";
  Merge m = merge(tmp, {a.dir, b.dir, "--output-dir", out_dir});
  INFO(m.out << m.err);
  REQUIRE(m.exit_code == 0);

  const std::vector<std::vector<json>> runs{a.records(), b.records()};
  REQUIRE(runs[0].size() == 20);
  REQUIRE(runs[1].size() == 30);
  const json s = json::parse(read_file(out_dir + "/profile_export_aiperf.json"));
  CHECK(s["request_count"]["avg"] == 50);
  CHECK_FALSE(s.contains("error_request_count"));

  const std::vector<double> ttft = values(runs, "time_to_first_token");
  REQUIRE(ttft.size() == 50);
  CHECK(s["time_to_first_token"]["min"].get<double>() == *std::min_element(ttft.begin(), ttft.end()));
  CHECK(s["time_to_first_token"]["max"].get<double>() == *std::max_element(ttft.begin(), ttft.end()));
  // Each input's own min/max are bounds the merge reaches exactly.
  CHECK(s["time_to_first_token"]["min"] == std::min(a.summary()["time_to_first_token"]["min"].get<double>(),
                                                    b.summary()["time_to_first_token"]["min"].get<double>()));
  CHECK(s["time_to_first_token"]["max"] == std::max(a.summary()["time_to_first_token"]["max"].get<double>(),
                                                    b.summary()["time_to_first_token"]["max"].get<double>()));

  const std::vector<double> latency = values(runs, "request_latency");
  REQUIRE(latency.size() == 50);
  CHECK(close(s["request_latency"]["avg"], std::accumulate(latency.begin(), latency.end(), 0.0) / 50));
  const std::vector<double> osl = values(runs, "output_sequence_length");
  CHECK(s["total_osl"]["avg"] == std::accumulate(osl.begin(), osl.end(), 0.0));
  CHECK(s["output_sequence_length"]["min"] == 4);
  CHECK(s["output_sequence_length"]["max"] == 4);

  // Duration spans both runs: first request start to last response.
  int64_t first_start = INT64_MAX, last_end = 0;
  for (const auto& records : runs) {
    for (const json& r : records) {
      first_start = std::min(first_start, r["metadata"]["request_start_ns"].get<int64_t>());
      const double latency_ms = r["metrics"]["request_latency"]["value"];
      last_end = std::max(last_end, r["metadata"]["request_start_ns"].get<int64_t>() +
                                        static_cast<int64_t>(std::llround(latency_ms * 1e6)));
    }
  }
  // Wall-clock ns near 1.7e18 are held as doubles by the aggregator (256 ns apart there).
  const double duration = s["benchmark_duration"]["avg"];
  CHECK(std::fabs(duration - (last_end - first_start) / 1e9) <= 1e-6);
  CHECK(close(s["request_throughput"]["avg"], 50 / duration));

  CHECK(read_lines(out_dir + "/profile_export.jsonl").size() == 50);
  const std::string csv = read_file(out_dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("\r\nRequest Count,50.00\r\n") != std::string::npos);
  CHECK(m.out.find("Merged 50 records from 2 files") != std::string::npos);
  CHECK(m.out.find("JSON Export: " + out_dir + "/profile_export_aiperf.json") != std::string::npos);
}

TEST_CASE("process-export-files: merging one run reproduces its summary", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "5", "--itl", "1"}, tmp);
  auto a = profile(tmp, mock, "run", "12");
  REQUIRE(a.exit_code == 0);
  Merge m = merge(tmp, {a.dir + "/profile_export.jsonl", "--output-dir", tmp + "/merged"});
  INFO(m.out << m.err);
  REQUIRE(m.exit_code == 0);
  const json original = a.summary();
  const json merged = json::parse(read_file(tmp + "/merged/profile_export_aiperf.json"));
  for (const char* tag : {"time_to_first_token", "time_to_second_token", "request_latency", "input_sequence_length",
                          "output_sequence_length", "request_count", "benchmark_duration", "request_throughput",
                          "inter_chunk_latency", "total_osl", "total_isl"}) {
    INFO(tag);
    REQUIRE(original.contains(tag));
    CHECK(merged[tag] == original[tag]);
  }
  // Float metrics: the file holds their shortest round-trip display value, so back in base
  // units they may differ in the last bit.
  for (const char* tag : {"inter_token_latency", "output_token_throughput_per_user"}) {
    INFO(tag);
    REQUIRE(original.contains(tag));
    for (const char* stat : {"avg", "min", "max", "p50", "p99"}) {
      INFO(stat);
      CHECK(close(merged[tag][stat], original[tag][stat]));
    }
  }
}

TEST_CASE("process-export-files: a directory without records is an input error", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Merge m = merge(tmp, {tmp, "--output-dir", tmp + "/merged"});
  CHECK(m.exit_code == 2);
  CHECK(m.err.find(tmp + "/profile_export.jsonl: no such file") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp + "/merged"));
}

TEST_CASE("process-export-files: an output directory holding an input is refused", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  auto a = profile(tmp, mock, "run", "4");
  REQUIRE(a.exit_code == 0);
  Merge m = merge(tmp, {a.dir, "--output-dir", a.dir});
  CHECK(m.exit_code == 2);
  CHECK(m.err.find("choose another directory") != std::string::npos);
  CHECK(read_lines(a.dir + "/profile_export.jsonl").size() == 4);  // input untouched
}
