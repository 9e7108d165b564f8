// Reads our files the way a script written for AIPerf's samples (spec 7.3 / 7.4) does:
// csv rows by header name, JSON by key paths. Runs the real pipeline: records -> Aggregator ->
// write_summary_csv / write_summary_json.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "export/summary_csv.h"
#include "export/summary_json.h"
#include "metrics/aggregator.h"
#include "metrics/record_metrics.h"
#include "test_files.h"

using namespace aiperf;

using aiperf::test::slurp;
namespace {

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t pos; (pos = s.find(sep, start)) != std::string::npos; start = pos + sep.size()) {
    out.push_back(s.substr(start, pos - start));
  }
  out.push_back(s.substr(start));
  return out;
}

proto::ProfileResults run() {
  metrics::MetricContext ctx;
  ctx.streaming = true;
  metrics::Aggregator agg(ctx);
  for (int i = 0; i < 10; ++i) {
    metrics::ParsedRecord r;
    const int64_t ms = 1'000'000;
    for (int k = 0; k < 5; ++k) r.responses.push_back({(100 + i + 10 * k) * ms, "x", ""});
    r.output_tokens = 5 + i;
    r.input_tokens = 550;
    if (i == 9) r.error = proto::ErrorDetails();
    if (r.error) {
      r.error->set_code(500);
      r.error->set_type("Internal Server Error");
      r.error->set_message("boom");
    }
    proto::MetricRecord rec;
    metrics::compute_record_metrics(r, ctx, rec.mutable_metrics());
    rec.mutable_metadata()->set_request_start_ns(1'765'764'263'000'000'000 + i * 100 * ms);
    if (r.error) *rec.mutable_error() = *r.error;
    agg.add(rec);
  }
  return agg.finalize();
}

}  // namespace

TEST_CASE("CSV parses like AIPerf's: header row, metric names with units, value section") {
  const auto dir = std::filesystem::temp_directory_path() / "aiperf_schema_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "profile_export_aiperf.csv").string();
  exporting::write_summary_csv(path, run());
  const std::vector<std::string> lines = split(slurp(path), "\r\n");

  REQUIRE(lines.front() == "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std");
  const auto blank = std::find(lines.begin(), lines.end(), "");
  REQUIRE(blank != lines.end());
  REQUIRE(*(blank + 1) == "Metric,Value");
  std::map<std::string, std::vector<std::string>> records;
  for (auto it = lines.begin() + 1; it != blank; ++it) {
    auto cells = split(*it, ",");
    REQUIRE(cells.size() == 15);
    records[cells[0]] = cells;
  }
  std::map<std::string, std::string> scalars;
  for (auto it = blank + 2; it != lines.end() && !it->empty(); ++it) {
    auto cells = split(*it, ",");
    REQUIRE(cells.size() == 2);
    scalars[cells[0]] = cells[1];
  }
  for (const char* name :
       {"Time to First Token (ms)", "Time to Second Token (ms)", "Request Latency (ms)",
        "Inter Token Latency (ms)", "Inter Chunk Latency (ms)", "Output Sequence Length (tokens)",
        "Input Sequence Length (tokens)", "Output Token Count (tokens)",
        "Output Token Throughput Per User (tokens/sec/user)",
        "Prefill Throughput Per User (tokens/sec/user)", "Error Input Sequence Length (tokens)"}) {
    CHECK(records.count(name) == 1);
  }
  CHECK(records.at("Input Sequence Length (tokens)")[2] == "550.00");  // a token min: float too (0.13)
  CHECK(records.at("Request Latency (ms)")[2] == "140.00");          // float min (ms)
  CHECK(scalars.at("Request Count") == "9.00");
  CHECK(scalars.at("Error Request Count") == "1.00");
  CHECK(scalars.at("Total Input Sequence Length (tokens)") == "4950.00");
  CHECK(scalars.count("Benchmark Duration (sec)") == 1);
  CHECK(scalars.count("Request Throughput (requests/sec)") == 1);
  CHECK(scalars.count("Minimum Request Timestamp (ns)") == 0);  // INTERNAL
  std::filesystem::remove_all(dir);
}

TEST_CASE("JSON parses like AIPerf's: metric objects by tag, error summary, metadata") {
  const auto dir = std::filesystem::temp_directory_path() / "aiperf_schema_test_json";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "profile_export_aiperf.json").string();
  exporting::SummaryInfo info;
  info.aiperf_version = "0.6.0";
  info.benchmark_id = "id";
  info.input_config = {{"endpoint", {{"streaming", true}}}};
  info.start_ns = 1'765'764'263'000'000'000;
  info.end_ns = 1'765'764'264'000'000'000;
  exporting::write_summary_json(path, run(), info);
  const auto data = nlohmann::ordered_json::parse(slurp(path));

  CHECK(data["schema_version"] == "1.0");
  CHECK(data["aiperf_version"] == "0.6.0");
  const auto& latency = data["request_latency"];
  CHECK(latency["unit"] == "ms");
  for (const char* stat : {"avg", "p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99",
                           "min", "max", "std"}) {
    CHECK(latency[stat].is_number_float());
  }
  // Since AIPerf 0.7 (schema 1.1) record metrics also carry the sample count and sum.
  CHECK(latency["count"].is_number_integer());
  CHECK(latency["sum"].is_number());
  CHECK_FALSE(data["request_count"].contains("count"));
  CHECK_FALSE(data["request_count"].contains("sum"));
  CHECK(data["request_count"]["avg"] == 9);
  CHECK(data["request_count"]["avg"].is_number_float());  // AIPerf 0.13: 9.0
  CHECK(data["request_throughput"]["unit"] == "requests/sec");
  CHECK(data["benchmark_duration"]["unit"] == "sec");
  CHECK(data["error_request_count"]["avg"] == 1);
  CHECK(data["error_summary"][0]["error_details"]["code"] == 500);
  CHECK(data["error_summary"][0]["count"] == 1);
  CHECK(data["input_config"]["endpoint"]["streaming"] == true);
  CHECK(data["was_cancelled"] == false);
  CHECK(data["start_time"].get<std::string>().size() == 19);  // whole second: no fraction
  CHECK_FALSE(data.contains("min_request_timestamp"));         // INTERNAL
  // Predeclared keys come before input_config, the rest after end_time.
  std::vector<std::string> keys;
  for (const auto& [k, v] : data.items()) keys.push_back(k);
  auto pos = [&](const std::string& k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
  CHECK(pos("request_throughput") < pos("request_latency"));
  CHECK(pos("total_error_isl") < pos("input_config"));
  CHECK(pos("end_time") < pos("time_to_first_output_token"));
  CHECK(pos("end_time") < pos("prefill_throughput_per_user"));
  std::filesystem::remove_all(dir);
}
