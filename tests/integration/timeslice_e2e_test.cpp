// End-to-end: --slice-duration writes the two timeslice files as AIPerf 0.13 does: slices
// anchored at the first request start, records by request start, windows in both files.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_lines;
using nlohmann::json;
namespace fs = std::filesystem;

TEST_CASE("timeslices: files exist, slices partition the records, counts add up", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const int64_t slice_ns = 200'000'000;  // --slice-duration 0.2
  aiperf::test::ProfileRun run = aiperf::test::run_profile(
      tmp + "/artifacts",
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat", "--random-seed", "1",
       "--url", mock.url(), "--request-rate", "25", "--request-count", "20", "--output-tokens-mean", "4",
       "--slice-duration", "0.2"},
      tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  const std::string csv_path = run.dir + "/profile_export_aiperf_timeslices.csv";
  const std::string json_path = run.dir + "/profile_export_aiperf_timeslices.json";
  REQUIRE(fs::exists(csv_path));
  REQUIRE(fs::exists(json_path));
  CHECK(run.out.find("Timeslice CSV Export: " + csv_path) != std::string::npos);
  CHECK(run.out.find("Timeslice JSON Export: " + json_path) != std::string::npos);

  // Expected slices from the per-record times: a grid from the first start in steps of 0.2 s,
  // each record in the slice of its start, empty slices skipped, the last cut at the last end.
  const std::vector<json> recs = run.records();
  REQUIRE(recs.size() == 20);
  int64_t first = INT64_MAX, last = 0;
  for (const json& r : recs) {
    first = std::min(first, r.at("metadata").at("request_start_ns").get<int64_t>());
    last = std::max(last, r.at("metadata").at("request_end_ns").get<int64_t>());
  }
  std::map<int64_t, int> per_slice;  // grid index -> records (starts well inside a slice here)
  for (const json& r : recs) per_slice[(r.at("metadata").at("request_start_ns").get<int64_t>() - first) / slice_ns]++;
  REQUIRE(per_slice.size() >= 2);  // 20 requests at 25/s span ~0.8 s

  const json slices = run.json_file("profile_export_aiperf_timeslices.json").at("timeslices");
  REQUIRE(slices.size() == per_slice.size());
  double total = 0;
  std::size_t i = 0;
  for (const auto& [index, count] : per_slice) {
    const json& s = slices.at(i);
    CHECK_FALSE(s.contains("timeslice_index"));
    // The window: whole 0.2 s steps from the first start (exact as doubles within 256 ns).
    const int64_t start = s.at("start_ns").get<int64_t>();
    CHECK(std::llabs(start - (first + index * slice_ns)) <= 256);
    const bool is_last = i + 1 == per_slice.size();
    const int64_t end = s.at("end_ns").get<int64_t>();
    if (!is_last || start + slice_ns <= last - 256) {
      CHECK(std::llabs(end - (start + slice_ns)) <= 256);
      CHECK_FALSE(s.contains("is_complete"));
    } else if (start + slice_ns > last + 256) {  // the last slice, cut at the run's last end
      CHECK(std::llabs(end - last) <= 256);
      CHECK(s.at("is_complete") == false);
    }
    CHECK(s.at("request_count").at("avg") == count);
    CHECK(s.at("request_count").at("avg").is_number_float());  // 0.13 writes 4.0, not 4
    // Throughputs divide by the slice's window, not by its requests' span.
    CHECK(s.at("request_throughput").at("avg").get<double>() == count / (static_cast<double>(end - start) / 1e9));
    CHECK(s.at("request_latency").at("count").is_number_integer());
    CHECK(s.at("request_count").at("unit") == "requests");
    CHECK(s.at("request_latency").contains("p50"));
    total += s.at("request_count").at("avg").get<double>();
    ++i;
  }
  CHECK(total == run.summary().at("request_count").at("avg").get<double>());
  CHECK(run.json_file("profile_export_aiperf_timeslices.json").at("input_config").is_object());

  // The CSV says the same: one "Request Count" avg row per slice with the same counts.
  const std::vector<std::string> lines = read_lines(csv_path);
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.front() == "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\r");
  std::map<int, int> csv_counts;
  for (const std::string& line : lines) {
    const auto comma = line.find(',');
    if (line.find(",Request Count,requests,avg,") == std::string::npos) continue;
    const std::string value = line.substr(line.rfind(',') + 1);
    CHECK(value.find('.') == value.size() - 4);  // "4.00\r": 2 decimals for counts too
    csv_counts[std::stoi(line.substr(0, comma))] = std::stoi(value);
    // The row carries its slice's window, the same as the JSON's.
    const json& s = slices.at(static_cast<std::size_t>(std::stoi(line.substr(0, comma))));
    CHECK(line.find("," + std::to_string(s.at("start_ns").get<int64_t>()) + "," +
                    std::to_string(s.at("end_ns").get<int64_t>()) + ",Request Count,") == comma);
  }
  REQUIRE(csv_counts.size() == per_slice.size());
  i = 0;
  for (const auto& [index, count] : per_slice) CHECK(csv_counts.at(static_cast<int>(i++)) == count);
}

TEST_CASE("sweep-line metrics and credit latencies: summary, CSV and each slice", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // Each request: 50 ms to the first token, then 5 tokens 10 ms apart (100 ms); two in flight.
  MockServer mock({"--ttft", "50", "--itl", "10"}, tmp);
  aiperf::test::ProfileRun run = aiperf::test::run_profile(tmp + "/artifacts",
                                                           {"--tokenizer",
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
                                                            mock.url(),
                                                            "--concurrency",
                                                            "2",
                                                            "--request-count",
                                                            "10",
                                                            "--synthetic-input-tokens-mean",
                                                            "20",
                                                            "--synthetic-input-tokens-stddev",
                                                            "0",
                                                            "--output-tokens-mean",
                                                            "6",
                                                            "--output-tokens-stddev",
                                                            "0",
                                                            "--extra-inputs",
                                                            "ignore_eos:true",
                                                            "--slice-duration",
                                                            "0.2"},
                                                           tmp, "aiperf", 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json summary = run.summary();

  const std::vector<std::string> sweeps = {"effective_concurrency",
                                           "effective_decode_throughput",
                                           "effective_prefill_throughput",
                                           "effective_decode_concurrency",
                                           "effective_prefill_concurrency",
                                           "effective_total_throughput",
                                           "effective_decode_throughput_per_user",
                                           "effective_prefill_throughput_per_user",
                                           "tokens_in_flight",
                                           "active_decode_throughput",
                                           "active_prefill_throughput",
                                           "active_decode_throughput_per_user",
                                           "active_prefill_throughput_per_user",
                                           "active_total_throughput"};
  for (const std::string& tag : sweeps) {
    INFO(tag);
    REQUIRE(summary.contains(tag));
    std::vector<std::string> keys;
    for (const auto& [key, value] : summary.at(tag).items()) keys.push_back(key);
    // AIPerf 0.13's sweep-line result: no count, sum or p1..p25/p75 (keys sorted by the parser).
    CHECK(keys == std::vector<std::string>{"avg", "max", "min", "p50", "p90", "p95", "p99", "std", "unit"});
    CHECK(summary.at(tag).at("avg").get<double>() >= 0);
  }
  // Two requests in flight nearly all the time; half of each in prefill (ISL 20 over 50 ms:
  // 400 tokens/s per user), half decoding (5 tokens over 50 ms: 100/s per user).
  const double concurrency = summary.at("effective_concurrency").at("avg").get<double>();
  CHECK(concurrency > 1.5);
  CHECK(concurrency <= 2.0 + 1e-9);
  CHECK(summary.at("effective_concurrency").at("max").get<double>() == 2.0);
  CHECK(summary.at("effective_concurrency").at("unit") == "requests");
  const double prefill_per_user = summary.at("active_prefill_throughput_per_user").at("avg").get<double>();
  CHECK(prefill_per_user > 200);
  CHECK(prefill_per_user < 450);
  const double decode_per_user = summary.at("active_decode_throughput_per_user").at("avg").get<double>();
  CHECK(decode_per_user > 50);
  CHECK(decode_per_user < 120);
  CHECK(summary.at("active_decode_throughput").at("unit") == "tokens/sec");
  const json& tokens = summary.at("tokens_in_flight");
  CHECK(tokens.at("unit") == "tokens");
  CHECK(tokens.at("avg").get<double>() > 20);             // at least one prompt held
  CHECK(tokens.at("max").get<double>() <= 2 * (20 + 6));  // two prompts and their outputs

  // The credit latencies: one value per request, the wait before it went out; the effective
  // latency is request latency plus that wait.
  const json& wait = summary.at("credit_to_start_latency");
  CHECK(wait.at("unit") == "ms");
  CHECK(wait.at("count") == 10);
  CHECK(wait.at("avg").get<double>() >= 0);
  CHECK(wait.at("avg").get<double>() < 100);
  const double latency = summary.at("request_latency").at("avg").get<double>();
  const double effective = summary.at("effective_latency").at("avg").get<double>();
  // (To the last byte, which may come a little after the last token request_latency ends at.)
  CHECK(effective >= latency + wait.at("avg").get<double>() - 0.01);
  CHECK(effective <= latency + wait.at("avg").get<double>() + 5);

  // The summary CSV: statistics rows (empty where a sweep has no such statistic).
  const std::string csv = aiperf::test::read_file(run.dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("\nEffective Concurrency,") != std::string::npos);
  CHECK(csv.find("\nActive Decode Throughput (tokens/sec),") != std::string::npos);
  CHECK(csv.find("\nTokens In Flight (tokens),") != std::string::npos);
  CHECK(csv.find("\nCredit-to-Start Latency (ms),") != std::string::npos);
  CHECK(csv.find("\nEffective Latency (CO-aware) (ms),") != std::string::npos);
  // On the console in AIPerf 0.13's tables of their own, before the main one; the credit
  // latency is not shown.
  const size_t main_table = run.out.find("NVIDIA AIPerf | LLM Metrics\n");
  CHECK(run.out.find("Effective Concurrency") < run.out.find("NVIDIA AIPerf | LLM Metrics: Active\n"));
  CHECK(run.out.find("Active Decode Throughput") < main_table);
  CHECK(main_table != std::string::npos);
  CHECK(run.out.find("Credit-to-Start Latency") == std::string::npos);

  // Each slice weighs the run's curves over its window; the credit latencies are per run only.
  const json slices = run.json_file("profile_export_aiperf_timeslices.json").at("timeslices");
  REQUIRE(slices.size() >= 2);
  for (const json& s : slices) {
    CHECK(s.contains("effective_concurrency"));
    CHECK(s.at("effective_concurrency").at("max").get<double>() <= 2.0);
    CHECK(s.contains("tokens_in_flight"));
    CHECK(s.contains("active_total_throughput"));
    CHECK_FALSE(s.contains("credit_to_start_latency"));
    CHECK_FALSE(s.contains("effective_latency"));
  }
  const std::string slice_csv = aiperf::test::read_file(run.dir + "/profile_export_aiperf_timeslices.csv");
  CHECK(slice_csv.find(",Tokens In Flight,tokens,avg,") != std::string::npos);
  CHECK(slice_csv.find(",Effective Concurrency,requests,p99,") != std::string::npos);
}

TEST_CASE("a slice duration must be positive", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::ProfileRun run = aiperf::test::run_profile(
      tmp + "/artifacts",
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--url", "http://127.0.0.1:9", "--request-count",
       "1", "--slice-duration", "0"},
      tmp, "aiperf", 60);
  CHECK(run.exit_code == 2);
  CHECK_FALSE(fs::exists(run.dir + "/profile_export_aiperf_timeslices.csv"));
}
