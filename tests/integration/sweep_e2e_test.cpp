// Parameter sweeps (`--concurrency 1,2,4`, ...): one folder per point named as AIPerf names
// it, each a complete run of its own; the per-point and sweep aggregate files; the layouts
// with --num-profile-runs; and the sweep options' validation.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "process.h"

using aiperf::test::MockServer;
namespace fs = std::filesystem;

namespace {
std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

TEST_CASE("sweep of concurrency 1 2 4: a folder per point with per-point aggregates and the sweep aggregate", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "sweep",
      {"--url", mock.url(), "--streaming", "--isl", "8", "--osl", "3", "--concurrency", "1,2,4", "--request-count", "6",
       "--random-seed", "7"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(aiperf::test::recorded_bodies(rec).size() == 3 * 6);
  const auto sweep = run.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["aggregation_type"] == "sweep");
  CHECK(sweep["num_profile_runs"] == 3);
  CHECK(sweep["num_successful_runs"] == 3);
  CHECK(sweep["metadata"]["sweep_parameters"] == nlohmann::json::parse(R"([{"name":"concurrency","values":[1,2,4]}])"));
  CHECK(sweep["metadata"]["num_combinations"] == 3);
  CHECK(sweep["metadata"]["sweep_mode"] == "repeated");
  CHECK(sweep["metadata"]["num_trials_per_value"] == 1);
  REQUIRE(sweep["per_combination_metrics"].size() == 3);
  const int conc[] = {1, 2, 4};
  for (int i = 0; i < 3; ++i) {
    const std::string point = "concurrency_" + std::to_string(conc[i]);
    INFO(point);
    // The point is a complete run of its own, with its config and its own seed (7 + index).
    const auto summary = run.json_file(point + "/profile_export_aiperf.json");
    CHECK(fs::exists(run.dir + "/" + point + "/profile_export.jsonl"));
    CHECK(fs::exists(run.dir + "/" + point + "/logs/aiperf.log"));
    const auto cfg = run.json_file(point + "/run_config.json");
    CHECK(cfg["loadgen"]["concurrency"] == conc[i]);
    CHECK(cfg["input"]["random_seed"] == 7 + i);
    CHECK(summary["request_count"]["avg"] == 6);
    // The sweep file's numbers are the point's own summary values.
    const auto& entry = sweep["per_combination_metrics"][i];
    CHECK(entry["parameters"] == nlohmann::json{{"concurrency", conc[i]}});
    for (const char* tag : {"request_throughput", "request_latency", "time_to_first_token", "output_token_throughput"}) {
      INFO(tag);
      const auto& m = entry["metrics"][tag];
      CHECK(m["mean"] == summary[tag]["avg"]);
      CHECK(m["avg"] == summary[tag]["avg"]);
      CHECK(m["std"] == 0.0);
      CHECK(m["unit"] == summary[tag]["unit"]);
    }
    CHECK(entry["metrics"]["request_latency"]["p99"] == summary["request_latency"]["p99"]);
    CHECK(entry["metrics"]["request_latency"]["max"] == summary["request_latency"]["max"]);
    // The per-point confidence aggregate (a single run: the interval collapses).
    const auto agg = run.json_file("aggregate/" + point + "/profile_export_aiperf_aggregate.json");
    CHECK(agg["metadata"]["single_run"] == true);
    CHECK(agg["metadata"]["variation_label"] == "phases.profiling.concurrency=" + std::to_string(conc[i]));
    CHECK(agg["metadata"]["model"] == "m");
    CHECK(agg["metrics"]["request_throughput_avg"]["mean"] == summary["request_throughput"]["avg"]);
    CHECK(fs::exists(run.dir + "/aggregate/" + point + "/profile_export_aiperf_aggregate.csv"));
  }
  const std::string csv = read_text(run.dir + "/sweep_aggregate/profile_export_aiperf_sweep.csv");
  CHECK(csv.rfind("concurrency,", 0) == 0);
  CHECK(csv.find("\r\nNumber of Successful Runs,3\r\n") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir + "/profile_export_aiperf.json"));  // no run at the top level
}

TEST_CASE("sweep with two profile runs: repeated puts the trials outer and independent the points", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const std::vector<std::string> common{"--url", mock.url(), "--isl", "8", "--osl", "2", "--concurrency", "1,2",
                                        "--request-count", "4", "--num-profile-runs", "2"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = common;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };
  const auto rep = aiperf::test::run_named(tmp, "repeated", common);
  INFO(rep.out << rep.err);
  REQUIRE(rep.exit_code == 0);
  for (const char* t : {"trial_0001", "trial_0002"})
    for (const char* p : {"concurrency_1", "concurrency_2"})
      CHECK(fs::exists(rep.dir + "/profile_runs/" + t + "/" + p + "/profile_export_aiperf.json"));
  const auto sweep = rep.json_file("aggregate/sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["num_profile_runs"] == 4);
  CHECK(sweep["metadata"]["num_trials_per_value"] == 2);
  // The point's mean is the mean of its two trials.
  const double t1 = rep.json_file("profile_runs/trial_0001/concurrency_2/profile_export_aiperf.json")["request_throughput"]["avg"];
  const double t2 = rep.json_file("profile_runs/trial_0002/concurrency_2/profile_export_aiperf.json")["request_throughput"]["avg"];
  const auto& tp = sweep["per_combination_metrics"][1]["metrics"]["request_throughput_avg"];
  CHECK(tp["mean"].get<double>() == Approx((t1 + t2) / 2));
  CHECK(tp["min"].get<double>() == std::min(t1, t2));
  CHECK(sweep["best_configurations"].contains("best_throughput"));
  const auto agg = rep.json_file("aggregate/concurrency_2/profile_export_aiperf_aggregate.json");
  CHECK(agg["metadata"]["num_profile_runs"] == 2);
  CHECK(agg["metadata"]["run_labels"] == nlohmann::json::array({"run_0001", "run_0002"}));

  const auto ind = aiperf::test::run_named(tmp, "independent", with({"--parameter-sweep-mode", "independent"}));
  INFO(ind.out << ind.err);
  REQUIRE(ind.exit_code == 0);
  for (const char* p : {"concurrency_1", "concurrency_2"}) {
    CHECK(fs::exists(ind.dir + "/" + p + "/profile_runs/trial_0001/profile_export_aiperf.json"));
    CHECK(fs::exists(ind.dir + "/" + p + "/profile_runs/trial_0002/profile_export_aiperf.json"));
    CHECK(fs::exists(ind.dir + "/" + p + "/aggregate/profile_export_aiperf_aggregate.json"));
  }
  CHECK(ind.json_file("sweep_aggregate/profile_export_aiperf_sweep.json")["metadata"]["sweep_mode"] == "independent");

  // Independent mode stops a point's trials once they agree (the request count is the same in
  // every trial: its CV is 0 after the second of at most 4).
  const auto conv = aiperf::test::run_named(
      tmp, "converge",
      {"--url", mock.url(), "--isl", "8", "--osl", "2", "--concurrency", "1,2", "--request-count", "4",
       "--num-profile-runs", "4", "--parameter-sweep-mode", "independent", "--convergence-metric", "request_count",
       "--convergence-mode", "cv"});
  INFO(conv.out << conv.err);
  REQUIRE(conv.exit_code == 0);
  for (const char* p : {"concurrency_1", "concurrency_2"}) {
    CHECK(fs::exists(conv.dir + "/" + p + "/profile_runs/trial_0002"));
    CHECK_FALSE(fs::exists(conv.dir + "/" + p + "/profile_runs/trial_0003"));
  }
  CHECK(conv.json_file("sweep_aggregate/profile_export_aiperf_sweep.json")["num_profile_runs"] == 4);
}

TEST_CASE("grid and zip of two lists, and the same seed for every point on request", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const auto zip = aiperf::test::run_named(
      tmp, "zip",
      {"--url", mock.url(), "--osl", "2", "--isl", "8,16", "--concurrency", "1,2", "--request-count", "3",
       "--sweep-type", "zip", "--random-seed", "3", "--parameter-sweep-same-seed"});
  INFO(zip.out << zip.err);
  REQUIRE(zip.exit_code == 0);
  // zip: two points; the dataset path sorts first. AIPerf honours --parameter-sweep-same-seed
  // on grid sweeps only, so the zip points still get 3 and 4.
  CHECK(zip.json_file("mean_8__concurrency_1/run_config.json")["input"]["random_seed"] == 3);
  CHECK(zip.json_file("mean_16__concurrency_2/run_config.json")["input"]["random_seed"] == 4);
  CHECK_FALSE(fs::exists(zip.dir + "/mean_8__concurrency_2"));
  CHECK(zip.json_file("sweep_aggregate/profile_export_aiperf_sweep.json")["metadata"]["num_combinations"] == 4);

  const auto grid = aiperf::test::run_named(
      tmp, "grid",
      {"--url", mock.url(), "--osl", "2", "--isl", "8", "--concurrency", "1,2", "--request-rate", "100,200",
       "--request-count", "3", "--random-seed", "3", "--parameter-sweep-same-seed"});
  INFO(grid.out << grid.err);
  REQUIRE(grid.exit_code == 0);
  for (const char* p : {"concurrency_1__rate_100.0", "concurrency_1__rate_200.0", "concurrency_2__rate_100.0",
                        "concurrency_2__rate_200.0"}) {
    INFO(p);
    CHECK(grid.json_file(std::string(p) + "/run_config.json")["input"]["random_seed"] == 3);
  }
  CHECK(grid.json_file("concurrency_2__rate_200.0/run_config.json")["loadgen"]["request_rate"] == 200.0);
}

TEST_CASE("sweep lists are checked before anything runs", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  for (const auto& [args, message] :
       std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--concurrency", "1,2,4", "--request-rate", "1,2", "--sweep-type", "zip"},
            "Error: --sweep-type zip: zip sweep parameters must all have equal length; got "
            "{'phases.profiling.concurrency': 3, 'phases.profiling.rate': 2}."},
           {{"--concurrency", "1,x"}, "Error: --concurrency: invalid value 'x' in the list '1,x' (an integer expected)"},
           {{"--concurrency", "1,2", "--sweep-type", "cube"}, "--sweep-type: cube not in"},
           {{"--concurrency", "1,2", "--parameter-sweep-mode", "nope"}, "--parameter-sweep-mode: nope not in"},
           {{"--concurrency", "1,2", "--parameter-sweep-cooldown-seconds", "-1"}, "--parameter-sweep-cooldown-seconds"},
           {{"--warmup-concurrency", "1,2"}, "--warmup-concurrency"},
           {{"--concurrency", "1,2", "--ui", "dashboard"},
            "Error: --ui-type: Dashboard UI is incompatible with parameter sweeps; sweep results would overwrite"},
           // Each point is validated as a run of its own: 0 is refused in the second point.
           {{"--concurrency", "2,0"}, "(sweep point phases.profiling.concurrency=0)"}}) {
    std::vector<std::string> full{"--tokenizer", "gpt2", "--model", "m", "--url", "http://127.0.0.1:9"};
    full.insert(full.end(), args.begin(), args.end());
    if (std::find(args.begin(), args.end(), "--ui") == args.end()) full.insert(full.end(), {"--ui-type", "none"});
    const auto run = aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "bad", 60);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp + "/artifacts"));  // nothing written
  }
}
