// End-to-end: the output files of issue #4 — raw export and prefix naming, usage / OSL
// mismatch / goodput metrics, and JSON aggregates that equal statistics recomputed from the
// per-record JSONL on a run with injected errors.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {


using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, std::vector<std::string> args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat",
                                "--random-seed", "1"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120);
}

// numpy.percentile default (linear between closest ranks) of sorted values.
double percentile(const std::vector<double>& sorted, double q) {
  const double pos = (static_cast<double>(sorted.size()) - 1) * q / 100.0;
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

bool close(double a, double b) { return std::fabs(a - b) <= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

}  // namespace

TEST_CASE("export level raw with a prefix: every file under the prefix, raw_records merged away", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, {"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "6",
                          "--record-processors", "2", "--export-level", "raw", "--profile-export-prefix",
                          "run1.json", "--output-tokens-mean", "5", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  for (const char* name : {"run1.json", "run1.csv", "run1.jsonl", "run1_raw.jsonl"}) {
    CHECK(fs::exists(run.dir + "/" + name));
  }
  CHECK_FALSE(fs::exists(run.dir + "/profile_export_aiperf.json"));
  CHECK_FALSE(fs::exists(run.dir + "/raw_records"));
  CHECK(run.out.find("Raw Records: " + run.dir + "/run1_raw.jsonl") != std::string::npos);

  std::map<std::string, json> by_request;
  for (const json& r : run.lines("run1.jsonl")) by_request[r["metadata"]["x_request_id"]] = r;
  const std::vector<json> raw = run.lines("run1_raw.jsonl");
  REQUIRE(raw.size() == 6);
  for (const json& r : raw) {
    const std::string id = r["metadata"]["x_request_id"];
    REQUIRE(by_request.count(id) == 1);
    CHECK(r["metadata"] == by_request[id]["metadata"]);  // same metadata as the record line
    CHECK(r["payload"]["model"] == "m");
    CHECK(r["payload"]["stream"] == true);
    CHECK(r["request_headers"]["X-Request-ID"] == id);
    CHECK(r["status"] == 200);
    CHECK(r["response_headers"]["Content-Type"].get<std::string>().rfind("text/event-stream", 0) == 0);
    CHECK(r["start_perf_ns"].is_number_integer());
    CHECK_FALSE(r.contains("error"));
    // Five content events, then usage and [DONE]; every event one data packet.
    const json& responses = r["responses"];
    REQUIRE(responses.size() >= 6);
    CHECK(responses.back()["packets"] == json::parse(R"([{"name":"data","value":"[DONE]"}])"));
    for (const json& resp : responses) {
      CHECK(resp["perf_ns"].get<int64_t>() >= r["start_perf_ns"].get<int64_t>());
      CHECK(resp["packets"][0]["name"] == "data");
    }
  }
}

TEST_CASE("usage, OSL mismatch and goodput metrics agree with the per-record values", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // min_tokens:1 lets the mock stop anywhere in 1..12: OSL misses the request on some turns.
  // Not streaming: a streamed response carries usage only with --use-server-token-count.
  Run run = profile(tmp, {"--url", mock.url(), "--concurrency", "4", "--request-count", "30",
                          "--output-tokens-mean", "12", "--extra-inputs", "min_tokens:1", "--goodput",
                          "output_sequence_length:10"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json s = json::parse(read_file(run.dir + "/profile_export_aiperf.json"));
  const std::vector<json> recs = run.lines("profile_export.jsonl");
  REQUIRE(recs.size() == 30);

  int mismatches = 0, good = 0, discrepancies = 0;
  double usage_prompt_total = 0;
  for (const json& r : recs) {
    const json& m = r["metrics"];
    const double osl = m["output_sequence_length"]["value"], isl = m["input_sequence_length"]["value"];
    const double usage_prompt = m["usage_prompt_tokens"]["value"];
    CHECK(m["usage_completion_tokens"]["value"] == osl);  // same tokenizer on both sides
    CHECK(m["usage_total_tokens"]["value"] == usage_prompt + osl);
    CHECK(close(m["usage_prompt_tokens_diff_pct"]["value"], std::fabs(usage_prompt - isl) / isl * 100));
    CHECK(m["usage_prompt_tokens_diff_pct"]["unit"] == "%");
    CHECK(close(m["osl_mismatch_diff_pct"]["value"], (osl - 12) / 12 * 100));
    CHECK_FALSE(m.contains("requested_osl"));  // INTERNAL
    mismatches += std::fabs(osl - 12) > std::min(12 * 0.05, 50.0);
    good += osl >= 10;
    discrepancies += m["usage_prompt_tokens_diff_pct"]["value"].get<double>() > 10 ||
                     m["usage_completion_tokens_diff_pct"]["value"].get<double>() > 10;
    usage_prompt_total += usage_prompt;
  }
  REQUIRE(mismatches > 0);  // the seed makes the mock stop early on some requests
  REQUIRE(good > 0);
  CHECK(s["osl_mismatch_count"]["avg"] == mismatches);
  CHECK(s["good_request_count"]["avg"] == good);
  CHECK(s["usage_discrepancy_count"]["avg"] == discrepancies);
  CHECK(s["total_usage_prompt_tokens"]["avg"] == usage_prompt_total);
  CHECK(close(s["goodput"]["avg"], good / s["benchmark_duration"]["avg"].get<double>()));
  CHECK(s["goodput"]["unit"] == "requests/sec");
  CHECK(run.out.find("Output Sequence Length Mismatch Warning") != std::string::npos);
  CHECK(run.out.find(std::to_string(mismatches) + " of 30 requests") != std::string::npos);
  CHECK(run.out.find("Goodput (requests/sec)") != std::string::npos);  // console row
}

TEST_CASE("goodput naming a metric the run cannot produce: exit 2, nothing written", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Run run = profile(tmp, {"--url", "http://127.0.0.1:9", "--request-count", "1", "--goodput",
                          "time_to_first_token:100"});  // not streaming: no TTFT
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("Invalid --goodput: metric(s) time_to_first_token are not applicable to the current "
                     "endpoint/configuration") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir));
}

TEST_CASE("every aggregate in the JSON equals statistics recomputed from the JSONL (injected errors)", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "2", "--itl", "1", "--error-rate", "30", "--random-seed", "1"}, tmp);
  Run run = profile(tmp, {"--url", mock.url(), "--streaming", "--concurrency", "4", "--request-count", "40",
                          "--output-tokens-mean", "6", "--extra-inputs", "min_tokens:1", "--request-rate", "400"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json s = json::parse(read_file(run.dir + "/profile_export_aiperf.json"));
  const std::vector<json> recs = run.lines("profile_export.jsonl");
  REQUIRE(recs.size() == 40);

  std::map<std::string, std::vector<double>> values;
  std::map<std::string, std::string> units;
  int errors = 0;
  for (const json& r : recs) {
    errors += r.contains("error");
    for (const auto& [tag, m] : r["metrics"].items()) {
      units[tag] = m["unit"];
      if (m["value"].is_array()) {
        for (const json& v : m["value"]) values[tag].push_back(v.get<double>());
      } else {
        values[tag].push_back(m["value"].get<double>());
      }
    }
  }
  REQUIRE(errors > 0);
  REQUIRE(errors < 40);
  CHECK(s["error_request_count"]["avg"] == errors);
  CHECK(s["request_count"]["avg"] == 40 - errors);
  REQUIRE(values.count("error_isl") == 1);    // error records carry their ISL
  REQUIRE(values.count("schedule_lag") == 1);  // --request-rate credits have intended times

  int record_metrics = 0;
  for (auto& [tag, v] : values) {
    INFO(tag);
    REQUIRE(s.contains(tag));
    const json& agg = s[tag];
    CHECK(agg["unit"] == units[tag]);
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (double x : v) sum += x;
    const double mean = sum / static_cast<double>(v.size());
    double sq = 0;
    for (double x : v) sq += (x - mean) * (x - mean);
    CHECK(close(agg["avg"], mean));
    CHECK(close(agg["min"], v.front()));
    CHECK(close(agg["max"], v.back()));
    CHECK(close(agg["std"], std::sqrt(sq / static_cast<double>(v.size()))));
    for (int q : {1, 5, 10, 25, 50, 75, 90, 95, 99}) {
      CHECK(close(agg["p" + std::to_string(q)], percentile(v, q)));
    }
    ++record_metrics;
  }
  CHECK(record_metrics >= 14);
  // Totals are sums of the per-record values.
  double osl = 0, isl = 0, error_isl = 0;
  for (double x : values["output_sequence_length"]) osl += x;
  for (double x : values["input_sequence_length"]) isl += x;
  for (double x : values["error_isl"]) error_isl += x;
  CHECK(s["total_osl"]["avg"] == osl);
  CHECK(s["total_isl"]["avg"] == isl);
  CHECK(s["total_error_isl"]["avg"] == error_isl);
  CHECK(s["error_summary"][0]["count"] == errors);
}
