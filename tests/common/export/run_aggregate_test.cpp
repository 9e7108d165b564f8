// Multi-run aggregation: hand-computed statistics of three trials, the degenerate cases, the
// CSV layout and the convergence rules.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "export/run_aggregate.h"

using aiperf::exporting::aggregate_confidence;
using aiperf::exporting::aggregate_csv;
using aiperf::exporting::Convergence;
using aiperf::exporting::converged;
using aiperf::exporting::TrialResult;
using ojson = nlohmann::ordered_json;

namespace {

TrialResult trial(const std::string& label, double ttft_avg, double zero = 0, bool success = true) {
  TrialResult t;
  t.label = label;
  t.success = success;
  if (!success) t.error = "No requests completed";
  t.metrics["time_to_first_token"] = {{"unit", "ms"}, {"avg", ttft_avg}, {"p99", ttft_avg + 100}};
  t.metrics["http_req_blocked"] = {{"unit", "ms"}, {"avg", zero}};
  t.metrics["request_count"] = {{"unit", "requests"}, {"avg", 20}};
  return t;
}

}  // namespace

TEST_CASE("three trials: sample std, standard error and a t interval with 2 degrees of freedom") {
  const ojson agg = aggregate_confidence({trial("run_0001", 10), trial("run_0002", 12), trial("run_0003", 14)}, 0.95,
                                         1.5, "0.1.0");
  const ojson& m = agg["metrics"]["time_to_first_token_avg"];
  CHECK(m["mean"] == Approx(12));
  CHECK(m["std"] == Approx(2));  // ddof 1: sqrt((4 + 0 + 4) / 2)
  CHECK(m["min"] == 10);
  CHECK(m["max"] == 14);
  CHECK(m["cv"] == Approx(2.0 / 12));
  CHECK(m["se"] == Approx(2 / std::sqrt(3.0)));
  CHECK(m["t_critical"] == Approx(4.302652729749462).epsilon(1e-12));
  CHECK(m["ci_low"] == Approx(12 - 4.302652729749462 * 2 / std::sqrt(3.0)));
  CHECK(m["ci_high"] == Approx(12 + 4.302652729749462 * 2 / std::sqrt(3.0)));
  CHECK(m["unit"] == "ms");
  CHECK(agg["metrics"]["time_to_first_token_p99"]["mean"] == Approx(112));
  CHECK(agg["metrics"]["http_req_blocked_avg"]["cv"].is_null());  // mean 0: no coefficient
  // Keys: each metric's statistics in AIPerf's order (avg before p99), metrics as listed.
  auto it = agg["metrics"].begin();
  CHECK(it.key() == "time_to_first_token_avg");
  CHECK((++it).key() == "time_to_first_token_p99");
  CHECK((++it).key() == "http_req_blocked_avg");

  const ojson& md = agg["metadata"];
  CHECK(md["aggregation_type"] == "confidence");
  CHECK(md["num_profile_runs"] == 3);
  CHECK(md["num_successful_runs"] == 3);
  CHECK(md["failed_runs"].empty());
  CHECK(md["run_labels"] == ojson::array({"run_0001", "run_0002", "run_0003"}));
  CHECK(md["cooldown_seconds"] == 1.5);
  CHECK(agg["schema_version"] == "1.0");
}

TEST_CASE("failed trials are listed and left out; one success collapses the interval") {
  const ojson agg = aggregate_confidence({trial("run_0001", 10), trial("run_0002", 99, 0, false)}, 0.9, 0, "v");
  CHECK(agg["metadata"]["num_profile_runs"] == 2);
  CHECK(agg["metadata"]["num_successful_runs"] == 1);
  CHECK(agg["metadata"]["failed_runs"] == ojson::array({{{"label", "run_0002"}, {"error", "No requests completed"}}}));
  CHECK(agg["metadata"]["single_run"] == true);
  const ojson& m = agg["metrics"]["time_to_first_token_avg"];
  CHECK(m["mean"] == 10);
  CHECK(m["std"] == 0);
  CHECK(m["ci_low"] == 10);
  CHECK(m["ci_high"] == 10);
  CHECK(m["t_critical"].is_null());
  CHECK(m["cv"] == 0.0);
  // AIPerf's single-run record: cv 0 even where the mean is 0 (several trials: null, its inf).
  CHECK(agg["metrics"]["http_req_blocked_avg"]["cv"] == 0.0);
  CHECK_THROWS_WITH(aggregate_confidence({trial("run_0001", 1, 0, false)}, 0.95, 0, "v"),
                    Catch::Contains("All runs failed"));
}

TEST_CASE("the CSV: fixed decimals, inf for a missing cv, then the metadata rows") {
  const ojson agg = aggregate_confidence({trial("run_0001", 10), trial("run_0002", 12), trial("run_0003", 14)}, 0.95,
                                         0, "v");
  const std::string csv = aggregate_csv(agg);
  CHECK(csv.rfind("metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit\r\n", 0) == 0);
  CHECK(csv.find("\r\ntime_to_first_token_avg,12.00,2.00,10.00,14.00,0.1667,1.1547,7.03,16.97,4.3027,ms\r\n") !=
        std::string::npos);
  CHECK(csv.find("\r\nhttp_req_blocked_avg,0.00,0.00,0.00,0.00,inf,0.0000,0.00,0.00,4.3027,ms\r\n") != std::string::npos);
  CHECK(csv.find("\r\n\r\nAggregation Type,confidence\r\nTotal Runs,3\r\nSuccessful Runs,3\r\n"
                 "Confidence Level,0.95\r\nRun Labels,\"['run_0001', 'run_0002', 'run_0003']\"\r\n"
                 "Cooldown Seconds,0.0\r\n") != std::string::npos);
}

TEST_CASE("convergence: ci_width and cv on a run statistic, after at least two trials") {
  Convergence c;
  c.metric = "time_to_first_token";
  std::vector<TrialResult> trials{trial("run_0001", 100)};
  CHECK_FALSE(converged(trials, c, 0.95, ""));  // one trial says nothing
  trials.push_back(trial("run_0002", 101));
  // CI width: 2 * 12.706 * 0.7071 / sqrt(2) / 100.5 = 0.126 > 0.10
  CHECK_FALSE(converged(trials, c, 0.95, ""));
  trials.push_back(trial("run_0003", 100.5));
  // 2 * 4.3027 * 0.5 / sqrt(3) / 100.5 = 0.0247 < 0.10
  CHECK(converged(trials, c, 0.95, ""));
  c.threshold = 0.02;
  CHECK_FALSE(converged(trials, c, 0.95, ""));

  c.mode = "cv";
  c.threshold.reset();  // 0.05; cv = 0.5 / 100.5
  CHECK(converged(trials, c, 0.95, ""));
  c.threshold = 0.004;
  CHECK_FALSE(converged(trials, c, 0.95, ""));
  c.stat = "p99";  // the same spread around a mean 100 higher: cv 0.5 / 200.5
  CHECK(converged(trials, c, 0.95, ""));
  c.metric = "no_such_metric";
  CHECK_FALSE(converged(trials, c, 0.95, ""));
}

TEST_CASE("convergence by distribution: the last trial's requests against all earlier ones (KS test)") {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / "aiperf-aggregate-test";
  fs::remove_all(root);
  auto write_trial = [&](const std::string& label, double shift) {
    fs::create_directories(root / label);
    std::ofstream out(root / label / "profile_export.jsonl");
    for (int i = 0; i < 200; ++i)
      out << "{\"metadata\":{\"benchmark_phase\":\"profiling\"},\"metrics\":{\"time_to_first_token\":{\"value\":"
          << (shift + i * 0.5) << ",\"unit\":\"ms\"}}}\n";
    TrialResult t = trial(label, 10);
    t.dir = (root / label).string();
    return t;
  };
  Convergence c;
  c.metric = "time_to_first_token";
  c.mode = "distribution";
  std::vector<TrialResult> same{write_trial("a", 0), write_trial("b", 0)};
  CHECK(converged(same, c, 0.95, "profile_export.jsonl"));
  std::vector<TrialResult> moved{write_trial("c", 0), write_trial("d", 40)};  // 40 % of the range apart
  CHECK_FALSE(converged(moved, c, 0.95, "profile_export.jsonl"));
  fs::remove_all(root);
}
