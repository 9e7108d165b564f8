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

TEST_CASE("outputs.json export: one entry per request with the text the server sent and the record's metrics",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, {"--url", mock.url(), "--streaming", "--concurrency", "3", "--request-count", "9",
                          "--record-processors", "2", "--export-level", "raw", "--export-outputs-json",
                          "--warmup-request-count", "2", "--output-tokens-mean", "6", "--extra-inputs",
                          "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_FALSE(fs::exists(run.dir + "/output_fragments"));
  const json doc = run.json_file("outputs.json");
  CHECK(doc["schema_version"] == "1.0");
  const json& data = doc["data"];
  REQUIRE(data.size() == 9);  // profiling requests only: the 2 warmup requests are not there

  // The text each request received, rebuilt independently from the raw SSE packets.
  std::map<std::string, std::string> sent_text;
  for (const json& r : run.lines("profile_export_raw.jsonl")) {
    std::string text;
    for (const json& resp : r["responses"]) {
      for (const json& packet : resp["packets"]) {
        if (packet["value"] == "[DONE]") continue;
        const json chunk = json::parse(packet["value"].get<std::string>());
        if (chunk["choices"].empty()) continue;
        const json& delta = chunk["choices"][0]["delta"];
        if (delta.contains("content") && delta["content"].is_string()) text += delta["content"].get<std::string>();
      }
    }
    sent_text[r["metadata"]["x_request_id"]] = text;
  }
  std::map<std::string, json> records;
  for (const json& r : run.records()) records[r["metadata"]["x_request_id"]] = r;
  REQUIRE(records.size() == 9);

  // Key order as the reference writes it (json sorts keys; ordered_json keeps the file's).
  const auto ordered = nlohmann::ordered_json::parse(read_file(run.dir + "/outputs.json"));
  for (const auto& e : ordered["data"]) {
    std::vector<std::string> keys, metric_keys;
    for (auto it = e.begin(); it != e.end(); ++it) keys.push_back(it.key());
    for (auto it = e["metrics"].begin(); it != e["metrics"].end(); ++it) metric_keys.push_back(it.key());
    CHECK(keys == std::vector<std::string>{"session_num", "conversation_id", "turn_index", "x_request_id",
                                           "request_start_ns", "request_end_ns", "metrics", "response_text"});
    CHECK(metric_keys == std::vector<std::string>{"input_sequence_length", "output_token_count",
                                                  "output_sequence_length", "request_latency",
                                                  "time_to_first_token", "inter_token_latency"});
  }
  int64_t previous_session = -1;
  for (const json& e : data) {
    CHECK(e["session_num"].get<int64_t>() > previous_session);  // sorted by session
    previous_session = e["session_num"];
    const std::string id = e["x_request_id"];
    REQUIRE(records.count(id) == 1);
    const json& rec = records[id];
    CHECK(e["session_num"] == rec["metadata"]["session_num"]);
    CHECK(e["conversation_id"] == rec["metadata"]["conversation_id"]);
    CHECK(e["request_start_ns"] == rec["metadata"]["request_start_ns"]);
    CHECK(e["request_end_ns"] == rec["metadata"]["request_end_ns"]);
    CHECK(e["response_text"] == sent_text.at(id));
    CHECK_FALSE(e["response_text"].get<std::string>().empty());
    for (auto it = e["metrics"].begin(); it != e["metrics"].end(); ++it) {
      CHECK(it.value() == rec["metrics"][it.key()]["value"]);  // same display value as the JSONL
    }
    CHECK(e["metrics"]["output_sequence_length"] == 6);
  }
}

TEST_CASE("outputs.json export with a prefix that makes the summary outputs.json: exit 2, nothing written",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Run run = profile(tmp, {"--url", "http://127.0.0.1:9", "--request-count", "1", "--export-outputs-json",
                          "--profile-export-prefix", "outputs.json"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("--profile-export-prefix resolves to 'outputs' which produces 'outputs.json', colliding with "
                     "--export-outputs-json") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir));
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
    // AIPerf writes each record's good_request_count (1 when it met every SLO, else 0).
    CHECK(m["good_request_count"]["value"] == (osl >= 10 ? 1 : 0));
    CHECK(m["good_request_count"]["value"].is_number_integer());
    CHECK(m["good_request_count"]["unit"] == "requests");
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
  // AIPerf 0.13's summary numbers are floats: JSON 30.0, CSV 30.00 (counts and token totals too).
  CHECK(s["good_request_count"]["avg"].is_number_float());
  CHECK(s["input_sequence_length"]["min"].is_number_float());
  CHECK(s["input_sequence_length"]["count"] == 30);
  CHECK(s["input_sequence_length"]["count"].is_number_integer());
  CHECK(s["completed_request_count"]["avg"] == 30.0);
  CHECK(s["completed_request_count"]["unit"] == "requests");
  CHECK(s["request_error_rate"]["avg"] == 0.0);
  CHECK(s["request_error_rate"]["unit"] == "%");
  const std::string csv = read_file(run.dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("\r\nGood Request Count," + std::to_string(good) + ".00\r\n") != std::string::npos);
  CHECK(csv.find("\r\nCompleted Requests (Success + Error),30.00\r\n") != std::string::npos);
  CHECK(csv.find("\r\nRequest Count,30.00\r\n") != std::string::npos);
  CHECK(csv.find("\r\nRequest Error Rate (%),0.00\r\n") != std::string::npos);
  CHECK(csv.find("\r\nTotal Output Sequence Length (tokens)," +
                 std::to_string(static_cast<int64_t>(s["total_osl"]["avg"].get<double>())) + ".00\r\n") !=
        std::string::npos);
  CHECK(run.out.find("Completed Requests (Success + Error)") != std::string::npos);  // console rows
  CHECK(run.out.find("Request Error Rate (%)") != std::string::npos);
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
  CHECK(s["completed_request_count"]["avg"] == 40.0);
  CHECK(close(s["request_error_rate"]["avg"], 100.0 * errors / 40.0));
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
