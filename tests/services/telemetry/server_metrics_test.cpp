// Server metrics: per-series statistics over the profiling window and the export files.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "server_metrics.h"

using namespace aiperf::telemetry;

namespace {

const std::string kUrl = "http://127.0.0.1:8000/metrics";

std::string page(double requests, double running, const std::string& buckets, double sum, double count) {
  return "# HELP req_total Requests.\n# TYPE req_total counter\nreq_total{code=\"200\"} " + std::to_string(requests) +
         "\n# TYPE running gauge\nrunning " + std::to_string(running) +
         "\n# HELP lat_seconds Latency.\n# TYPE lat_seconds histogram\n" + buckets + "lat_seconds_sum " +
         std::to_string(sum) + "\nlat_seconds_count " + std::to_string(count) +
         "\n# TYPE build_info gauge\nbuild_info{version=\"1.2\",commit=\"abc\"} 1\n";
}

std::string buckets(int a, int b, int inf) {
  return "lat_seconds_bucket{le=\"0.1\"} " + std::to_string(a) + "\nlat_seconds_bucket{le=\"1\"} " + std::to_string(b) +
         "\nlat_seconds_bucket{le=\"+Inf\"} " + std::to_string(inf) + "\n";
}

constexpr int64_t kS = 1'000'000'000;

// Baseline at t=0 (before the window [1s, 11s]), then 4 scrapes in it, one counter reset.
ServerMetrics scrapes() {
  ServerMetrics m("");
  REQUIRE(m.add_scrape(kUrl, 0, 0, 1'000'000, page(10, 0, buckets(1, 2, 2), 0.5, 2)));
  REQUIRE(m.add_scrape(kUrl, 2 * kS, 0, 3'000'000, page(15, 4, buckets(3, 6, 6), 2.5, 6)));
  REQUIRE(m.add_scrape(kUrl, 4 * kS, 0, 1'000'000, page(3, 8, buckets(3, 8, 9), 7.0, 9)));  // counter reset
  REQUIRE(m.add_scrape(kUrl, 6 * kS, 0, 1'000'000, page(8, 2, buckets(4, 10, 12), 9.0, 12)));
  REQUIRE(m.add_scrape(kUrl, 11 * kS, 0, 1'000'000, page(8, 2, buckets(4, 10, 12), 9.0, 12)));
  return m;
}

const ServerSeries& find(const ServerMetrics& m, const std::string& family) {
  for (const auto& s : m.series())
    if (s.family == family) return s;
  FAIL("no series " << family);
  throw;
}

}  // namespace

TEST_CASE("counter: AIPerf 0.13's increase from the scrape before the window, and its rate") {
  // From the reference scrape (t=0, 10) to the last (t=11 s, 8): a decrease, i.e. a reset, which
  // AIPerf 0.13 counts as 0 (it warns), and no rate statistics without timeslices.
  const ServerMetrics m = scrapes();
  const auto stats = series_export(find(m, "req_total"), 1 * kS).stats;
  CHECK(stats == nlohmann::ordered_json{{"total", 0.0}, {"rate", 0.0}});
  // Without a reset: 10 at t=0 -> 18 at t=11 s, +8 over the 11 s between those scrapes.
  ServerMetrics steady("");
  REQUIRE(steady.add_scrape(kUrl, 0, 0, 1'000'000, page(10, 0, buckets(1, 2, 2), 0.5, 2)));
  REQUIRE(steady.add_scrape(kUrl, 2 * kS, 0, 1'000'000, page(15, 0, buckets(1, 2, 2), 0.5, 2)));
  REQUIRE(steady.add_scrape(kUrl, 11 * kS, 0, 1'000'000, page(18, 0, buckets(1, 2, 2), 0.5, 2)));
  const auto s2 = series_export(find(steady, "req_total"), 1 * kS).stats;
  CHECK(s2["total"] == 8.0);
  CHECK(s2["rate"].get<double>() == Approx(8.0 / 11).epsilon(1e-15));
  // No scrape before the window (the first is at its start): the first one in it is the
  // reference; a window after every scrape has no statistics (AIPerf leaves the series out).
  const auto s3 = series_export(find(steady, "req_total"), 2 * kS).stats;
  CHECK(s3["total"] == 8.0);  // reference t=0 (before 2 s): 10 -> 18
  const auto s4 = series_export(find(steady, "req_total"), 0).stats;
  CHECK(s4["total"] == 8.0);  // reference: the first scrape in the window, t=0
  CHECK(s4["rate"].get<double>() == Approx(8.0 / 11).epsilon(1e-15));
  CHECK(series_export(find(steady, "req_total"), 12 * kS).stats.empty());
  // Our Client vs Server totals stay reset-aware: +5, reset to 3 (+3), +5.
  CHECK(reset_aware_increase(find(m, "req_total"), 1 * kS) == 13.0);
}

TEST_CASE("gauge: statistics of the samples in the window") {
  const auto stats = series_export(find(scrapes(), "running"), 1 * kS).stats;
  CHECK(stats["avg"] == 4.0);  // 4, 8, 2, 2
  CHECK(stats["min"] == 2.0);
  CHECK(stats["max"] == 8.0);
  CHECK(stats["p50"] == 3.0);
  CHECK(stats["std"].get<double>() == Approx(std::sqrt(6.0)).epsilon(1e-15));
}

TEST_CASE("histogram: increase since the baseline, AIPerf 0.13's quantile estimates") {
  const ServerMetrics m = scrapes();
  const ServerSeries& s = find(m, "lat_seconds");
  CHECK(s.les == std::vector<std::string>{"0.1", "1", "+Inf"});
  const SeriesExport e = series_export(s, 1 * kS);
  const auto& stats = e.stats;
  const auto& buckets_out = e.buckets;
  CHECK(stats["count"] == 10);  // 12 - 2, an integer as AIPerf 0.13's
  CHECK(stats["count"].is_number_integer());
  CHECK(stats["sum"] == 8.5);
  CHECK(stats["avg"] == 0.85);
  // The rates over the 11 s from the reference scrape (t=0) to the last.
  CHECK(stats["count_rate"].get<double>() == Approx(10.0 / 11).epsilon(1e-15));
  CHECK(stats["sum_rate"].get<double>() == Approx(8.5 / 11).epsilon(1e-15));
  std::vector<std::string> keys;
  for (const auto& [k, v] : stats.items()) keys.push_back(k);
  CHECK(std::vector<std::string>(keys.begin(), keys.begin() + 5) ==
        std::vector<std::string>{"count", "sum", "avg", "count_rate", "sum_rate"});
  CHECK(buckets_out == nlohmann::ordered_json{{"0.1", 3}, {"1", 8}, {"+Inf", 10}});
  CHECK(buckets_out["1"].is_number_integer());
  // AIPerf 0.13's estimates (its own _compute_histogram_stats on these scrapes; the estimator's
  // cases: server_metrics_quantiles_test.cpp): the 2 observations above 1 take the sum left over.
  CHECK(stats["p50_estimate"] == 0.46);
  CHECK(stats["p90_estimate"] == 1.3599999999999988);
  CHECK(stats["p99_estimate"] == 4.276);
}

// One scrape a second from t=0 (the baseline, before the window at 0.5 s) to t=6 s.
ServerMetrics second_scrapes(std::optional<double> slice_s = std::nullopt) {
  ServerMetrics m("", slice_s);
  const double counter[] = {0, 2, 6, 7, 15, 15, 20};
  const double gauge[] = {9, 1, 2, 3, 4, 5, 6};
  const int b01[] = {0, 1, 2, 2, 3, 3, 4}, b1[] = {0, 1, 3, 3, 5, 5, 8};
  const double sum[] = {0, 0.5, 1.5, 1.5, 3.5, 3.5, 6.5};
  for (int t = 0; t <= 6; ++t)
    REQUIRE(m.add_scrape(kUrl, t * kS, 0, 1'000'000,
                         page(counter[t], gauge[t], buckets(b01[t], b1[t], b1[t]), sum[t], b1[t])));
  return m;
}

TEST_CASE("timeslices (--slice-duration 2): 0.13's slices from the first scrape in the window to the last") {
  // Slices [1 s, 3 s], [3 s, 5 s] and [5 s, 6 s], the last cut short: "is_complete": false.
  const ServerMetrics m = second_scrapes(2.0);
  const SeriesExport c = series_export(find(m, "req_total"), kS / 2, 2.0);
  REQUIRE(c.timeslices.size() == 3);
  CHECK(c.timeslices[0] ==
        nlohmann::ordered_json{{"start_ns", 1 * kS}, {"end_ns", 3 * kS}, {"total", 5.0}, {"rate", 2.5}});
  CHECK(c.timeslices[1]["rate"] == 4.0);  // 7 -> 15 over 2 s
  CHECK(c.timeslices[2] ==
        nlohmann::ordered_json{
            {"start_ns", 5 * kS}, {"end_ns", 6 * kS}, {"is_complete", false}, {"total", 5.0}, {"rate", 5.0}});
  // The rate statistics are over the complete slices only (2.5 and 4), std with ddof 1.
  CHECK(c.stats["total"] == 20.0);  // from the baseline at t=0
  CHECK(c.stats["rate_avg"] == 3.25);
  CHECK(c.stats["rate_min"] == 2.5);
  CHECK(c.stats["rate_max"] == 4.0);
  CHECK(c.stats["rate_std"].get<double>() == Approx(std::sqrt(2 * 0.75 * 0.75)).epsilon(1e-15));

  // A gauge's slice holds the scrapes in [start, end); the last one also the scrape at its end.
  const SeriesExport g = series_export(find(m, "running"), kS / 2, 2.0);
  REQUIRE(g.timeslices.size() == 3);
  CHECK(g.timeslices[0] ==
        nlohmann::ordered_json{{"start_ns", 1 * kS}, {"end_ns", 3 * kS}, {"avg", 1.5}, {"min", 1.0}, {"max", 2.0}});
  CHECK(g.timeslices[1]["avg"] == 3.5);
  CHECK(
      g.timeslices[2] ==
      nlohmann::ordered_json{
          {"start_ns", 5 * kS}, {"end_ns", 6 * kS}, {"is_complete", false}, {"avg", 5.5}, {"min", 5.0}, {"max", 6.0}});

  // A histogram's slice: the increase of count, sum and buckets between its bounds.
  const SeriesExport h = series_export(find(m, "lat_seconds"), kS / 2, 2.0);
  REQUIRE(h.timeslices.size() == 3);
  CHECK(h.timeslices[0] == nlohmann::ordered_json{{"start_ns", 1 * kS},
                                                  {"end_ns", 3 * kS},
                                                  {"count", 2},
                                                  {"sum", 1.0},
                                                  {"avg", 0.5},
                                                  {"buckets", {{"0.1", 1}, {"1", 2}, {"+Inf", 2}}}});
  CHECK(h.timeslices[1]["avg"] == 1.0);
  CHECK(h.timeslices[2]["count"] == 3);
  CHECK(h.timeslices[2]["is_complete"] == false);

  // Without --slice-duration: no timeslices and no rate statistics.
  const SeriesExport plain = series_export(find(m, "req_total"), kS / 2);
  CHECK(plain.timeslices.is_null());
  CHECK_FALSE(plain.stats.contains("rate_avg"));
}

TEST_CASE("timeslices of a window holding one scrape: a 1 ns slice for a counter, none for a gauge") {
  const ServerMetrics m = second_scrapes(2.0);
  const SeriesExport c = series_export(find(m, "req_total"), 5 * kS + kS / 2, 2.0);
  CHECK(c.timeslices ==
        nlohmann::ordered_json::array(
            {{{"start_ns", 6 * kS}, {"end_ns", 6 * kS + 1}, {"is_complete", false}, {"total", 0.0}, {"rate", 0.0}}}));
  CHECK_FALSE(c.stats.contains("rate_avg"));  // no complete slice
  CHECK(series_export(find(m, "running"), 5 * kS + kS / 2, 2.0).timeslices.is_null());
  // The export file carries them after the stats (and a histogram's buckets).
  const auto j = m.export_json({"0.1.0", "bench-1", {}}, {kUrl}, {kUrl}, kS / 2, 6 * kS);
  const auto& series = j["metrics"]["lat_seconds"]["series"][0];
  std::vector<std::string> keys;
  for (const auto& [k, v] : series.items()) keys.push_back(k);
  CHECK(keys == std::vector<std::string>{"endpoint_url", "stats", "buckets", "timeslices"});
  CHECK(series["timeslices"].size() == 3);
}

TEST_CASE("units as AIPerf 0.13 infers them: description range, description unit, name suffix") {
  CHECK(infer_unit("vllm:time_to_first_token_seconds") == "seconds");
  CHECK(infer_unit("vllm:prompt_tokens") == "tokens");
  CHECK(infer_unit("vllm:request_success") == "requests");  // the counter's name without _total
  CHECK(infer_unit("vllm:request_success_total") == "count");
  CHECK(infer_unit("vllm:num_requests_running") == "requests");
  CHECK(infer_unit("vllm:gpu_cache_usage_perc") == "percent");
  CHECK(infer_unit("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.") == "ratio");
  CHECK(infer_unit("cache_hit_percent", "Hit rate (0.0-1.0)") == "ratio");
  CHECK(infer_unit("util", "Utilisation (0-100)") == "percent");
  CHECK(infer_unit("gpu_power", "Power draw (in W)") == "watt");
  CHECK(infer_unit("energy", "Total energy (in mJ)") == "millijoule");
  CHECK(infer_unit("lat_seconds", "Request latency in milliseconds") == "milliseconds");
  CHECK(infer_unit("gen", "Generation throughput (tokens/s)") == "tokens/s");
  CHECK(infer_unit("process_resident_memory_bytes") == "bytes");
  CHECK(infer_unit("sglang:num_running_reqs") == "requests");
  CHECK(infer_unit("llamacpp:kv_cache_usage_ratio") == "ratio");
  CHECK(infer_unit("x_milliseconds") == "milliseconds");  // the longest suffix, not "_seconds"
  CHECK(infer_unit("mock_control_calls") == "");
  CHECK(infer_unit("running", "Requests in progress.") == "");
}

TEST_CASE("export json: fetch statistics, metric types, info metrics") {
  const ServerMetrics m = scrapes();
  const auto j =
      m.export_json({"0.1.0", "bench-1", {{"endpoint", {{"type", "chat"}}}}}, {kUrl}, {kUrl}, 1 * kS, 11 * kS);
  CHECK(j["schema_version"] == "1.1");
  std::vector<std::string> top;
  for (const auto& [k, v] : j.items()) top.push_back(k);
  CHECK(top == std::vector<std::string>{"schema_version", "aiperf_version", "benchmark_id", "summary", "metrics_phase",
                                        "metrics", "input_config"});
  CHECK(j["metrics_phase"] == "profiling");
  CHECK(j["summary"]["phase_time_ranges"] ==
        nlohmann::ordered_json{{"profiling", {{"start_ns", 1 * kS}, {"end_ns", 11 * kS}}}});
  CHECK(j["benchmark_id"] == "bench-1");
  const auto& info = j["summary"]["endpoint_info"][kUrl];
  CHECK(info["total_fetches"] == 5);
  CHECK(info["avg_fetch_latency_ms"] == 1.4);
  CHECK(info["unique_updates"] == 4);  // the last page repeats the one before
  CHECK(info["first_update_ns"] == 0);
  CHECK(info["last_update_ns"] == 6 * kS);
  CHECK(info["median_update_interval_ms"] == 2000.0);
  // AIPerf 0.13's names (a counter without "_total"), in name order.
  std::vector<std::string> families;
  for (const auto& [k, v] : j["metrics"].items()) families.push_back(k);
  CHECK(families == std::vector<std::string>{"build_info", "lat_seconds", "req", "running"});
  CHECK(j["metrics"]["req"]["type"] == "counter");
  CHECK_FALSE(j["metrics"]["req"].contains("unit"));  // "req" has no unit suffix, "Requests." names none
  CHECK(j["metrics"]["lat_seconds"]["unit"] == "seconds");
  CHECK(j["metrics"]["req"]["description"] == "Requests.");
  CHECK(j["metrics"]["req"]["series"][0]["labels"]["code"] == "200");
  CHECK_FALSE(j["metrics"]["running"]["series"][0].contains("labels"));  // no labels: no key, as AIPerf 0.13
  CHECK(j["metrics"]["req"]["series"][0]["stats"] == nlohmann::ordered_json{{"total", 0.0}, {"rate", 0.0}});
  CHECK(j["metrics"]["lat_seconds"]["series"][0]["buckets"]["+Inf"] == 10);
  CHECK(j["metrics"]["build_info"]["type"] == "info");
  CHECK(j["input_config"]["endpoint"]["type"] == "chat");
}

TEST_CASE("export csv: comment header, one section per type, info section") {
  const std::string csv = scrapes().export_csv({"0.1.0", "bench-1", {}}, 1 * kS);
  CHECK(csv.rfind("# AIPerf Server Metrics Export (CSV)\n# aiperf_version: 0.1.0\n# schema_version: 1.0\n"
                  "# benchmark_id: bench-1\n# Note: Same benchmark_id and version appear in JSON and Parquet exports\n"
                  "#\nEndpoint,Type,Metric,Unit,avg,",
                  0) == 0);
  // Endpoints as host:port, numbers to four decimals, a histogram's count as an integer.
  CHECK(csv.find("\nEndpoint,Type,Metric,Unit,avg,min,max,std,p1,p5,p10,p25,p50,p75,p90,p95,p99,Description\r\n"
                 "127.0.0.1:8000,gauge,running,,4.0000,2.0000,8.0000,2.4495,") != std::string::npos);
  CHECK(csv.find("Endpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,rate_std,code,Description\r\n"
                 "127.0.0.1:8000,counter,req,,0.0000,0.0000,,,,,200,Requests.\r\n") != std::string::npos);
  CHECK(csv.find("127.0.0.1:8000,histogram,lat_seconds,seconds,10,0.9091,8.5000,0.7727,0.8500,") != std::string::npos);
  CHECK(csv.find(",Latency.,0.1=3;1=8;+Inf=10\r\n") != std::string::npos);
  CHECK(csv.find("\r\nEndpoint,Metric,Key,Value,Description\r\n127.0.0.1:8000,build_info,commit,abc,\r\n"
                 "127.0.0.1:8000,build_info,version,1.2,\r\n") != std::string::npos);
}

TEST_CASE("export csv: 0.13's label columns (families, exclusive labels before shared ones) and row order") {
  // Counters labelled {a, k}, {a}, {z} and {b, x} twice. Families: {a, k} (k in one series, a in
  // two: k first), {b, x} (both shared), {z}; by their smallest label: a, b, z.
  ServerMetrics m("");
  REQUIRE(m.add_scrape(kUrl, 0, 0, 0,
                       "# TYPE first counter\nfirst{a=\"1\",k=\"2\"} 1\n# TYPE second counter\nsecond{a=\"1\"} 1\n"
                       "# TYPE third counter\nthird{z=\"1\"} 1\n# TYPE zeta counter\nzeta{x=\"2\",b=\"9\"} 1\n"
                       "zeta{x=\"1\",b=\"9\"} 1\n"));
  const std::string csv = m.export_csv({"0.1.0", "bench-1", {}}, 0);
  CHECK(
      csv.find("Endpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,rate_std,k,a,b,x,z,Description\r\n") !=
      std::string::npos);
  // Rows by the columns they fill ("00001" < "00110" < "01000" < "11000"), then name and labels.
  const size_t third = csv.find(",third,"), zeta1 = csv.find(",zeta,"), second = csv.find(",second,"),
               first = csv.find(",first,");
  CHECK(third < zeta1);
  CHECK(csv.find(",9,1,,") < csv.find(",9,2,,"));  // zeta's rows: x=1 before x=2
  CHECK(zeta1 < second);
  CHECK(second < first);
}

TEST_CASE("a page that does not parse records nothing") {
  ServerMetrics m("");
  CHECK_FALSE(m.add_scrape(kUrl, 0, 0, 0, "<html>404</html>"));
  CHECK_FALSE(m.endpoint_has_data(kUrl));
}

namespace {

// A page with what AIPerf 0.13's collector leaves out of its per-scrape record: a family without
// samples, a repeated label set (the last value wins), an "_info" family, an "_uptime" family,
// a family with only a NaN sample, a histogram label set with a NaN bucket, a summary.
const std::string kJsonlPage =
    "# HELP req_total Requests.\n# TYPE req_total counter\nreq_total{code=\"200\",b=\"x\"} 3\n"
    "# TYPE empty_total counter\n"
    "# TYPE running gauge\nrunning 2\nrunning 5\n"
    "# TYPE build_info gauge\nbuild_info{version=\"1.2\"} 1\n"
    "# TYPE server_uptime gauge\nserver_uptime 12\n"
    "# TYPE nan_gauge gauge\nnan_gauge NaN\n"
    "# HELP lat_seconds Latency.\n# TYPE lat_seconds histogram\n"
    "lat_seconds_bucket{model=\"m\",le=\"0.1\"} 1\nlat_seconds_bucket{model=\"m\",le=\"+Inf\"} 2\n"
    "lat_seconds_sum{model=\"m\"} 0.25\nlat_seconds_count{model=\"m\"} 2\n"
    "lat_seconds_bucket{model=\"bad\",le=\"+Inf\"} NaN\nlat_seconds_sum{model=\"bad\"} 1\n"
    "lat_seconds_count{model=\"bad\"} 1\n"
    "# TYPE q summary\nq{quantile=\"0.5\"} 1\nq_sum 1\nq_count 1\n"
    "# TYPE tiny gauge\ntiny{z=\"1\",a=\"2\"} 1e-07\n";

// The metrics of kJsonlPage as AIPerf 0.13.0 writes them (its collector and slim record, orjson).
const std::string kJsonlMetrics =
    R"("metrics":{"req":[{"labels":{"b":"x","code":"200"},"value":3.0}],"running":[{"value":5.0}],)"
    R"("lat_seconds":[{"labels":{"model":"m"},"buckets":{"0.1":1.0,"+Inf":2.0},"sum":0.25,"count":2.0}],)"
    R"("tiny":[{"labels":{"a":"2","z":"1"},"value":1e-7}]})";

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("jsonl: AIPerf 0.13's record of a scrape, with its phase") {
  const ScrapePhase profiling{"profiling", 1, 0, "profiling", "profiling"};
  const JsonlScrape scrape{kUrl, 1500, 700, 1000, 1500, &profiling};
  const auto page = aiperf::prometheus::parse(kJsonlPage);
  REQUIRE(page.ok());
  // The line 0.13.0 writes for this page and these times (checked with its own collector).
  CHECK(jsonl_record(scrape, *page.exposition) ==
        R"({"endpoint_url":"http://127.0.0.1:8000/metrics","timestamp_ns":1500,"endpoint_latency_ns":700,)" +
            kJsonlMetrics +
            R"(,"request_sent_ns":1000,"first_byte_ns":1500,"benchmark_phase":"profiling","phase_index":1,)"
            R"("profiling_index":0,"phase_name":"profiling","phase_kind":"profiling"})");
  // A warmup has no profiling index; without a phase (before the first) and without a first
  // byte the keys are left out.
  const ScrapePhase warmup{"warmup", 0, std::nullopt, "warmup", "warmup"};
  CHECK(jsonl_record({kUrl, 5, 3, 5, 5, &warmup}, *page.exposition)
            .ends_with(R"(,"first_byte_ns":5,"benchmark_phase":"warmup","phase_index":0,"phase_name":"warmup",)"
                       R"("phase_kind":"warmup"})"));
  CHECK(jsonl_record({kUrl, 5, 3, 5, std::nullopt, nullptr}, *page.exposition).ends_with(R"(]},"request_sent_ns":5})"));
  // Nothing left: no line.
  const auto empty = aiperf::prometheus::parse("# TYPE empty_total counter\n# TYPE build_info gauge\nbuild_info 1\n");
  REQUIRE(empty.ok());
  CHECK(jsonl_record(scrape, *empty.exposition).empty());
}

TEST_CASE("jsonl: one line per changed page, timed at its first byte") {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("server_metrics_jsonl_" + std::to_string(::getpid()) + ".jsonl"))
          .string();
  const ScrapePhase profiling{"profiling", 0, 0, "profiling", "profiling"};
  {
    ServerMetrics m(path);
    REQUIRE(m.add_scrape(kUrl, 1000, 1500, 700, kJsonlPage));              // before any phase
    REQUIRE(m.add_scrape(kUrl, 2000, 2400, 600, kJsonlPage, &profiling));  // the same page: no line
    REQUIRE(m.add_scrape(kUrl, 3000, 0, 500, "# TYPE tiny gauge\ntiny{z=\"1\",a=\"2\"} 2\n", &profiling));
    REQUIRE(m.add_scrape(kUrl, 4000, 4100, 200, "# TYPE empty gauge\n", &profiling));  // no samples: no line
    m.flush_jsonl();
    // The series are timed as the lines: 0.13 stamps a scrape with its first byte's time.
    CHECK(find(m, "tiny").ts == std::vector<int64_t>{1500, 2400, 3000});
  }
  const std::vector<std::string> lines = read_lines(path);
  std::filesystem::remove(path);
  CHECK(
      lines ==
      std::vector<std::string>{
          R"({"endpoint_url":"http://127.0.0.1:8000/metrics","timestamp_ns":1500,"endpoint_latency_ns":700,)" +
              kJsonlMetrics + R"(,"request_sent_ns":1000,"first_byte_ns":1500})",
          R"({"endpoint_url":"http://127.0.0.1:8000/metrics","timestamp_ns":3000,"endpoint_latency_ns":500,)"
          R"("metrics":{"tiny":[{"labels":{"a":"2","z":"1"},"value":2.0}]},"request_sent_ns":3000,"benchmark_phase":"profiling",)"
          R"("phase_index":0,"profiling_index":0,"phase_name":"profiling","phase_kind":"profiling"})"});
}
