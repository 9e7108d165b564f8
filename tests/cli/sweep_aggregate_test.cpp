// The sweep aggregate: per-point metrics (one trial: the summary's values; several: the
// confidence aggregate), best configurations, Pareto front and the CSV layout.
#include <catch2/catch.hpp>

#include "sweep_aggregate.h"

using namespace aiperf::cli::sweep;
using aiperf::exporting::TrialResult;
using ojson = nlohmann::ordered_json;

namespace {

TrialResult trial(const std::string& label, double tput, double ttft_p99, double lat_avg) {
  TrialResult t;
  t.label = label;
  t.success = true;
  t.metrics["request_throughput"] = {{"unit", "requests/sec"}, {"avg", tput}};
  t.metrics["time_to_first_token"] = {{"unit", "ms"}, {"avg", ttft_p99 / 2}, {"min", 1.0}, {"max", ttft_p99 + 1},
                                      {"p50", ttft_p99 / 2}, {"p99", ttft_p99}};
  t.metrics["request_latency"] = {{"unit", "ms"}, {"avg", lat_avg}, {"p95", lat_avg + 1}, {"count", 4}, {"sum", 4 * lat_avg}};
  t.metrics["request_count"] = {{"unit", "requests"}, {"avg", 4}};
  return t;
}

std::vector<Cell> cells_for(const std::vector<std::vector<TrialResult>>& trials) {
  const auto x = extract_lists({"aiperf", "profile", "--concurrency", "1,2,4"});
  const auto pts = expand(x.parameters, aiperf::cli::sweep::SweepType::kGrid);
  std::vector<Cell> cells;
  for (size_t i = 0; i < trials.size(); ++i) cells.push_back({pts[i], trials[i]});
  return cells;
}

}  // namespace

TEST_CASE("one trial per point: the summary's values, no spread, no best configuration", "[unit]") {
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20)}, {trial("run_0001", 18, 60, 25)}});
  const ojson s = sweep_aggregate(cells, "repeated", 0.95);
  CHECK(s["aggregation_type"] == "sweep");
  CHECK(s["num_profile_runs"] == 2);
  CHECK(s["num_successful_runs"] == 2);
  CHECK(s["metadata"]["sweep_parameters"] == ojson::parse(R"([{"name":"concurrency","values":[1,2]}])"));
  CHECK(s["metadata"]["num_combinations"] == 2);
  CHECK(s["metadata"]["sweep_mode"] == "repeated");
  CHECK(s["metadata"]["num_trials_per_value"] == 1);
  const ojson& m = s["per_combination_metrics"][1];
  CHECK(m["parameters"] == ojson::parse(R"({"concurrency":2})"));
  CHECK(m["metrics"]["request_latency"].dump() ==
        R"({"mean":25.0,"avg":25.0,"std":0.0,"min":25.0,"max":25.0,"cv":0.0,"ci_low":25.0,"ci_high":25.0,"unit":"ms","p95":26.0,"count":4,"sum":100.0})");
  CHECK(m["metrics"]["request_count"]["mean"].is_number_float());  // 4 -> 4.0 as in AIPerf
  CHECK(m["metrics"]["time_to_first_token"]["max"] == 61.0);
  CHECK(m["metrics"]["time_to_first_token"]["p99"] == 60.0);
  // Keys are metric tags here, so AIPerf's "request_throughput_avg" lookups find nothing.
  CHECK(s["best_configurations"].empty());
  CHECK(s["pareto_optimal"].empty());
}

TEST_CASE("several trials per point: confidence statistics, best configurations, Pareto front", "[unit]") {
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20), trial("run_0002", 12, 44, 22)},
                                {trial("run_0001", 20, 80, 30), trial("run_0002", 22, 84, 32)},
                                {trial("run_0001", 15, 90, 40), trial("run_0002", 17, 94, 42)}});
  const ojson s = sweep_aggregate(cells, "independent", 0.95);
  CHECK(s["num_profile_runs"] == 6);
  CHECK(s["metadata"]["num_trials_per_value"] == 2);
  const ojson& tp = s["per_combination_metrics"][0]["metrics"]["request_throughput_avg"];
  CHECK(tp["mean"] == 11.0);
  CHECK(tp["std"].get<double>() == Approx(1.41421356));
  CHECK(tp["min"] == 10.0);
  CHECK(tp["max"] == 12.0);
  // t(0.975, 1) = 12.7062; se = 1: 11 -+ 12.7062
  CHECK(tp["ci_low"].get<double>() == Approx(11 - 12.7062047).epsilon(1e-6));
  CHECK(tp["unit"] == "requests/sec");
  CHECK(s["best_configurations"]["best_throughput"]["parameters"] == ojson::parse(R"({"concurrency":2})"));
  CHECK(s["best_configurations"]["best_throughput"]["metric"] == 21.0);
  CHECK(s["best_configurations"]["best_latency_p99"]["parameters"] == ojson::parse(R"({"concurrency":1})"));
  CHECK(s["best_configurations"]["best_latency_p99"]["metric"] == 42.0);
  CHECK(s["best_configurations"]["best_latency_p99"]["unit"] == "ms");
  // concurrency 4 is dominated by 2 (less throughput, more latency).
  CHECK(s["pareto_optimal"] == ojson::parse(R"([{"concurrency":1},{"concurrency":2}])"));
}

TEST_CASE("a point whose trial failed is listed as failed and left out of the metrics", "[unit]") {
  TrialResult bad;
  bad.label = "run_0001";
  bad.error = "No requests completed";
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20)}, {bad}, {trial("run_0001", 15, 90, 40)}});
  const ojson s = sweep_aggregate(cells, "repeated", 0.95);
  CHECK(s["num_profile_runs"] == 3);
  CHECK(s["num_successful_runs"] == 2);
  CHECK(s["failed_runs"] == ojson::parse(R"([{"label":"run_0001","error":"No requests completed"}])"));
  REQUIRE(s["per_combination_metrics"].size() == 2);
  CHECK(s["per_combination_metrics"][1]["parameters"]["concurrency"] == 4);
  CHECK(s["metadata"]["sweep_parameters"][0]["values"] == ojson::parse("[1,2,4]"));
}

TEST_CASE("the sweep CSV: a row per point, then best, Pareto and metadata sections", "[unit]") {
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20), trial("run_0002", 12, 44, 22)},
                                {trial("run_0001", 20, 80, 30), trial("run_0002", 22, 84, 32)}});
  const std::string csv = sweep_csv(sweep_aggregate(cells, "repeated", 0.95));
  const std::string header_start = "concurrency,request_count_avg_mean,request_count_avg_std,";
  CHECK(csv.rfind(header_start, 0) == 0);
  CHECK(csv.find("\r\n1,4.00,0.00,4.00,4.00,0.0000,") != std::string::npos);
  CHECK(csv.find("\r\nBest Configurations\r\nConfiguration,concurrency,Metric,Unit\r\nBest Throughput,2,21.00,requests/sec\r\n"
                 "Best Latency P99,1,42.00,ms\r\n\r\nPareto Optimal Points\r\nconcurrency\r\n1\r\n2\r\n\r\nMetadata\r\n"
                 "Field,Value\r\nAggregation Type,sweep\r\nSweep Parameters,concurrency\r\nNumber of Combinations,2\r\n"
                 "Number of Profile Runs,4\r\nNumber of Successful Runs,4\r\n") != std::string::npos);
}

TEST_CASE("the per-point aggregate carries the point in its metadata", "[unit]") {
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20)}});
  const ojson a = point_aggregate(cells[0], 0.95, 0.0, "repeated", "m", "0.13.0");
  CHECK(a["metadata"]["single_run"] == true);
  CHECK(a["metadata"]["variation_label"] == "phases.profiling.concurrency=1");
  CHECK(a["metadata"]["variation_values"] == ojson::parse(R"({"phases.profiling.concurrency":1})"));
  CHECK(a["metadata"]["sweep_mode"] == "repeated");
  CHECK(a["metadata"]["model"] == "m");
  CHECK(a["metrics"]["request_throughput_avg"]["mean"] == 10.0);
  CHECK(point_csv_extra(a) ==
        "Variation Label,phases.profiling.concurrency=1\r\nVariation Values,{'phases.profiling.concurrency': 1}\r\n"
        "Sweep Mode,repeated\r\nModel,m\r\n");
}

TEST_CASE("the console table: swept paths, the headline metrics, trials", "[unit]") {
  const auto cells = cells_for({{trial("run_0001", 10, 40, 20)}, {trial("run_0001", 18, 60, 25)}});
  const std::string t = sweep_table(cells, 0.95);
  CHECK(t.find("phases.profiling.concurrency  output_token_throughput  time_to_first_token") != std::string::npos);
  CHECK(t.find("  40.00  ") != std::string::npos);  // TTFT p99 of the first point
  CHECK(t.find("26.00") != std::string::npos);      // request latency p95 of the second
}
