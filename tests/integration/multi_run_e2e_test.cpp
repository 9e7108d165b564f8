// `--num-profile-runs`: trials in their own folders, the aggregate files, warmup before the
// first trial only, the consistent seed, and early stop by convergence.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "process.h"

using aiperf::test::MockServer;
namespace fs = std::filesystem;

TEST_CASE("three profile runs: one folder per trial, warmup only before the first, an aggregate of all three",
          "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "multi",
      {"--url", mock.url(), "--streaming", "--isl", "16", "--osl", "4", "--concurrency", "2", "--request-count", "10",
       "--warmup-request-count", "3", "--num-profile-runs", "3", "--profile-run-cooldown-seconds", "0.2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  for (const char* label : {"run_0001", "run_0002", "run_0003"}) {
    const std::string dir = run.dir + "/profile_runs/" + label;
    CHECK(fs::exists(dir + "/profile_export_aiperf.json"));
    CHECK(fs::exists(dir + "/profile_export.jsonl"));
    CHECK(fs::exists(dir + "/logs/aiperf.log"));
    const auto cfg = run.json_file(std::string("profile_runs/") + label + "/run_config.json");
    CHECK(cfg["output"]["artifact_dir"] == dir);
    CHECK(cfg["input"]["random_seed"] == 42);  // no --random-seed: the consistent seed
  }
  // 3 warmup requests before the first trial only, then 10 per trial.
  CHECK(aiperf::test::recorded_bodies(rec).size() == 3 + 3 * 10);
  // The same seed makes the same prompts in every trial.
  CHECK(run.json_file("profile_runs/run_0001/inputs.json") == run.json_file("profile_runs/run_0003/inputs.json"));

  const auto agg = run.json_file("aggregate/profile_export_aiperf_aggregate.json");
  CHECK(agg["metadata"]["num_profile_runs"] == 3);
  CHECK(agg["metadata"]["num_successful_runs"] == 3);
  CHECK(agg["metadata"]["run_labels"] == nlohmann::json::array({"run_0001", "run_0002", "run_0003"}));
  CHECK(agg["metadata"]["cooldown_seconds"] == 0.2);
  const auto& count = agg["metrics"]["request_count_avg"];
  CHECK(count["mean"] == 10);
  CHECK(count["std"] == 0);
  CHECK(count["t_critical"].get<double>() == Approx(4.302652729749462));
  // Each trial's own value is in the range the aggregate reports.
  const double ttft1 = run.json_file("profile_runs/run_0001/profile_export_aiperf.json")["time_to_first_token"]["avg"];
  const auto& ttft = agg["metrics"]["time_to_first_token_avg"];
  CHECK(ttft["min"].get<double>() <= ttft1);
  CHECK(ttft["max"].get<double>() >= ttft1);
  CHECK(fs::exists(run.dir + "/aggregate/profile_export_aiperf_aggregate.csv"));
  CHECK(run.out.find("AGGREGATE STATISTICS SUMMARY") != std::string::npos);
}

TEST_CASE("convergence stops the trials early once the chosen statistic agrees", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // The request count is identical in every trial: its CV is 0 after the second.
  const auto run = aiperf::test::run_named(
      tmp, "converge",
      {"--url", mock.url(), "--isl", "8", "--osl", "2", "--concurrency", "2", "--request-count", "6",
       "--num-profile-runs", "5", "--convergence-metric", "request_count", "--convergence-mode", "cv"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(fs::exists(run.dir + "/profile_runs/run_0002"));
  CHECK_FALSE(fs::exists(run.dir + "/profile_runs/run_0003"));
  CHECK(run.out.find("Converged after 2 runs (cv on request_count)") != std::string::npos);
  CHECK(run.json_file("aggregate/profile_export_aiperf_aggregate.json")["metadata"]["num_profile_runs"] == 2);
}

TEST_CASE("multi-run options are checked like any other", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  for (const auto& [args, message] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--num-profile-runs", "11"}, "Error: --num-profile-runs: must be an integer from 1 to 10, got '11'"},
           {{"--confidence-level", "1"}, "Error: --confidence-level: must be a number in (0, 1), got '1'"},
           {{"--convergence-metric", "ttft"}, "Error: --convergence-metric: needs --num-profile-runs of at least 2"},
           {{"--num-profile-runs", "2", "--convergence-mode", "nope"}, "Error: --convergence-mode: nope not in"}}) {
    const auto run = aiperf::test::run_named(tmp, "bad", args);
    INFO(run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
  }
}
