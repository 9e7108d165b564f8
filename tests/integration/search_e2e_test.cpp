// Adaptive searches against the mock's engine model (4 slots: TTFT jumps once requests queue
// for a slot): the max-throughput-under-TTFT-SLA search finds the same knee as a full sweep of
// the same concurrencies (issue 14 #2), in AIPerf's layout (search_iter_NNNN/profile_runs/
// run_NNNN/, search_history.json); and the search options' validation (exit 2, nothing written).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "process.h"

using aiperf::test::MockServer;
namespace fs = std::filesystem;

namespace {

// A continuous-batching engine of 4 sequences: up to concurrency 4 TTFT is the prefill (~3 ms),
// from 5 on a request waits a whole request (~100 ms: 20 decode steps of 5 ms) for a slot.
const std::vector<std::string> kEngine = {"--engine-slots", "4", "--engine-prefill-tokens-per-s", "20000",
                                          "--engine-step-ms", "5", "--engine-step-per-seq-ms", "0"};
const std::vector<std::string> kWorkload = {"--streaming", "--isl", "50", "--osl", "20", "--request-count", "12"};
constexpr double kSlaMs = 50;

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("a max-throughput-under-TTFT-SLA search finds the sweep's knee within one step", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);

  // The reference answer: a full sweep of concurrency 1..6, the highest concurrency whose p95
  // TTFT (from its own summary file) is under the SLA with every lower one under it too.
  const auto sweep = aiperf::test::run_named(
      tmp, "sweep", with({"--url", mock.url(), "--concurrency", "1,2,3,4,5,6"}, kWorkload));
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.exit_code == 0);
  long sweep_knee = 0;
  for (int c = 1; c <= 6; ++c) {
    const auto s = sweep.json_file("concurrency_" + std::to_string(c) + "/profile_export_aiperf.json");
    if (s["time_to_first_token"]["p95"].get<double>() >= kSlaMs) break;
    sweep_knee = c;
  }
  REQUIRE(sweep_knee >= 1);
  REQUIRE(sweep_knee < 6);  // the knee is inside the range, so the search must bracket it

  const auto search = aiperf::test::run_named(
      tmp, "search",
      with({"--url", mock.url(), "--search-recipe", "max-throughput-ttft-sla", "--search-style", "monotonic",
            "--ttft-sla-ms", "50", "--concurrency-max", "6", "--auto-plot"},
           kWorkload));
  INFO(search.out << search.err);
  REQUIRE(search.exit_code == 0);
  const auto history = search.json_file("search_history.json");
  const long found = history["boundary_summary"]["feasible_max"]["value"].get<long>();
  CHECK(std::abs(found - sweep_knee) <= 1);
  CHECK(history["boundary_summary"]["swept_dim_path"] == "phases.profiling.concurrency");
  CHECK(history["boundary_summary"]["infeasible_min"]["value"].get<long>() == found + 1);
  CHECK(history["boundary_summary"]["infeasible_min"]["first_breach"]["metric_tag"] == "time_to_first_token");
  CHECK(history["convergence_reason"] == "monotonic_precision_reached");
  CHECK(history["recipe"] == "max-throughput-ttft-sla");
  CHECK(history["config"]["planner"] == "monotonic_sla");
  CHECK(history["config"]["sla_filters"][0] ==
        nlohmann::json::parse(R"({"metric_tag":"time_to_first_token","stat":"p95","op":"lt","threshold":50.0})"));
  CHECK(history["best_trials"][0]["variation_values"]["phases.profiling.concurrency"] == found);

  // Every iteration is a complete run in its own folder, and the history's verdict is what
  // that run's summary says.
  const auto& iterations = history["iterations"];
  REQUIRE(iterations.size() >= 4);
  size_t folders = 0;
  for (const auto& e : fs::directory_iterator(search.dir)) folders += e.path().filename().string().rfind("search_iter_", 0) == 0;
  CHECK(folders == iterations.size());
  for (size_t i = 0; i < iterations.size(); ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "search_iter_%04zu/profile_runs/run_0001", i);
    INFO(name);
    const std::string dir = search.dir + "/" + name;
    const auto s = read_json(dir + "/profile_export_aiperf.json");
    const auto cfg = read_json(dir + "/run_config.json");
    CHECK(cfg["loadgen"]["concurrency"] == iterations[i]["variation_values"]["phases.profiling.concurrency"]);
    CHECK(iterations[i]["feasible"] == (s["time_to_first_token"]["p95"].get<double>() < kSlaMs));
    CHECK(iterations[i]["objective_values"][0] == s["output_token_throughput"]["avg"]);
    CHECK(s["request_count"]["avg"] == 12);
  }
  // After the search, as AIPerf after one: a sweep combination per probed value holding its
  // last iteration (each value ran twice: the stability window), that value's aggregate, the
  // SLA verdicts in the sweep metadata, the recipe's Pareto axes, and the recovery checkpoint.
  std::vector<long> values;  // distinct, in first-probe order
  long last_at_found = -1;
  for (size_t i = 0; i < iterations.size(); ++i) {
    const long v = iterations[i]["variation_values"]["phases.profiling.concurrency"].get<long>();
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    if (v == found) last_at_found = static_cast<long>(i);
  }
  const auto agg = search.json_file("aggregate/concurrency_" + std::to_string(found) + "/profile_export_aiperf_aggregate.json");
  char label[32];
  std::snprintf(label, sizeof label, "search_iter_%04ld", last_at_found);
  CHECK(agg["metadata"]["variation_label"] == label);
  const auto sweep_doc = search.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  REQUIRE(sweep_doc["per_combination_metrics"].size() == values.size());
  long feasible_values = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    CHECK(sweep_doc["per_combination_metrics"][i]["parameters"]["concurrency"] == values[i]);
    feasible_values += values[i] <= found ? 1 : 0;
  }
  const auto& sla = sweep_doc["metadata"]["sla_constraints"];
  CHECK(sla["active_filters"][0]["threshold"] == 50.0);
  CHECK(sla["feasible_count"] == feasible_values);
  CHECK(sla["infeasible_count"] == static_cast<long>(values.size()) - feasible_values);
  CHECK(sweep_doc["metadata"]["pareto_axes"]["x_metric"] == "time_to_first_token");
  const auto checkpoint = search.json_file("search_checkpoint.json");
  REQUIRE(checkpoint["iterations"].size() == iterations.size());
  CHECK(checkpoint["iterations"][0]["results"][0]["variation_label"] == "search_iter_0000");
  CHECK(checkpoint["iterations"][0]["results"][0]["summary_metrics"]["request_count"]["avg"] == 12);
  // The probe starts at 1 and doubles; each value is run until two verdicts agree.
  CHECK(iterations[0]["variation_values"]["phases.profiling.concurrency"] == 1);
  CHECK(iterations[1]["variation_values"]["phases.profiling.concurrency"] == 1);
  CHECK(iterations[2]["variation_values"]["phases.profiling.concurrency"] == 2);
  // Progress on the console: each iteration and the result.
  CHECK(search.out.find("[search 1/30] concurrency=1: feasible") != std::string::npos);
  CHECK(search.out.find("Search finished (monotonic_precision_reached)") != std::string::npos);
  CHECK(search.out.find("highest feasible concurrency: " + std::to_string(found)) != std::string::npos);
  CHECK(fs::exists(search.dir + "/plots/report.html"));  // --auto-plot: aiperf plot on the search's runs
}

TEST_CASE("a bayesian search (the default planner) finds the sweep's max-throughput-under-SLA point", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  // The answer from a sweep: the highest concurrency whose own p95 TTFT is under the SLA, with
  // every lower one under it too (the engine has 4 slots, so above 4 requests queue ~100 ms).
  const auto sweep =
      aiperf::test::run_named(tmp, "sweep", with({"--url", mock.url(), "--concurrency", "1,2,3,4,5,6"}, kWorkload));
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.exit_code == 0);
  long sweep_knee = 0;
  for (int c = 1; c <= 6; ++c) {
    if (sweep
            .json_file("concurrency_" + std::to_string(c) + "/profile_export_aiperf.json")["time_to_first_token"]["p95"]
            .get<double>() >= kSlaMs)
      break;
    sweep_knee = c;
  }
  REQUIRE(sweep_knee >= 1);
  REQUIRE(sweep_knee < 6);

  // Throughput grows with concurrency while TTFT stays flat up to the knee, so the best feasible
  // point is the knee. No --search-planner: bayesian (our GP; the reference's needs BoTorch).
  const std::vector<std::string> search_args = {
      "--url",
      mock.url(),
      "--search-space",
      "phases.profiling.concurrency:1,12:int",
      "--search-metric",
      "output_token_throughput",
      "--search-direction",
      "maximize",
      "--search-max-iterations",
      "10",
      "--search-initial-points",
      "3",
      "--search-random-seed",
      "1",
      "--search-sla",
      "time_to_first_token:p95:lt:" + std::to_string(static_cast<int>(kSlaMs))};
  const auto search = aiperf::test::run_named(tmp, "bayesian", with(search_args, kWorkload));
  INFO(search.out << search.err);
  REQUIRE(search.exit_code == 0);
  const auto history = search.json_file("search_history.json");
  CHECK(history["config"]["planner"] == "bayesian");
  CHECK(history["config"]["random_seed"] == 1);
  CHECK(history["config"]["n_initial_points"] == 3);
  CHECK(history["config"]["improvement_patience"] == 10);
  const auto& iterations = history["iterations"];
  REQUIRE(iterations.size() >= 4);
  REQUIRE(iterations.size() <= 10);
  for (size_t i = 0; i < iterations.size(); ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "search_iter_%04zu/profile_runs/run_0001", i);
    INFO(name);
    const auto s = read_json(search.dir + "/" + name + "/profile_export_aiperf.json");
    const auto cfg = read_json(search.dir + "/" + name + "/run_config.json");
    const auto c = iterations[i]["variation_values"]["phases.profiling.concurrency"];
    CHECK(c.is_number_integer());
    CHECK(cfg["loadgen"]["concurrency"] == c);
    CHECK(iterations[i]["feasible"] == (s["time_to_first_token"]["p95"].get<double>() < kSlaMs));
    CHECK(iterations[i]["objective_values"][0] == s["output_token_throughput"]["avg"]);
    CHECK(iterations[i]["non_monotonic_warning"] == false);
  }
  const auto& best = history["best_trials"][0];
  CHECK(best["feasible"] == true);
  const long found = best["variation_values"]["phases.profiling.concurrency"].get<long>();
  CHECK(std::abs(found - sweep_knee) <= 1);
  CHECK(history["boundary_summary"]["swept_dim_path"] == "phases.profiling.concurrency");
  CHECK(std::abs(history["boundary_summary"]["feasible_max"]["value"].get<long>() - sweep_knee) <= 1);
  const std::string reason = history["convergence_reason"].get<std::string>();
  CHECK((reason == "max_iterations" || reason == "plateau_cv" || reason == "improvement_patience"));
  CHECK(search.json_file("sweep_aggregate/profile_export_aiperf_sweep.json")["metadata"]["sla_constraints"]
                                                                            ["active_filters"][0]["metric_tag"] ==
        "time_to_first_token");
  CHECK(fs::exists(search.dir + "/aggregate/concurrency_" + std::to_string(found) +
                   "/profile_export_aiperf_aggregate.json"));
  CHECK(search.json_file("search_checkpoint.json")["iterations"].size() == iterations.size());
  CHECK(search.out.find("Adaptive search (bayesian): phases.profiling.concurrency in [1, 12]") != std::string::npos);
  CHECK(search.out.find("Search finished (" + reason + ") after " + std::to_string(iterations.size()) +
                        " iterations") != std::string::npos);

  // The same seed gives the same search.
  const auto again = aiperf::test::run_named(tmp, "again", with(search_args, kWorkload));
  REQUIRE(again.exit_code == 0);
  const auto second = again.json_file("search_history.json")["iterations"];
  REQUIRE(second.size() >= 3);
  for (size_t i = 0; i < 3; ++i) CHECK(second[i]["variation_values"] == iterations[i]["variation_values"]);

  // optuna with the TPE sampler over two dimensions: each point sets both options.
  const auto tpe = aiperf::test::run_named(tmp, "tpe",
                                           with({"--url",
                                                 mock.url(),
                                                 "--search-space",
                                                 "phases.profiling.concurrency:1,4:int",
                                                 "--search-space",
                                                 "datasets.main.prompts.osl:5,20:int",
                                                 "--search-metric",
                                                 "output_token_throughput",
                                                 "--search-direction",
                                                 "maximize",
                                                 "--search-max-iterations",
                                                 "4",
                                                 "--search-initial-points",
                                                 "2",
                                                 "--search-planner",
                                                 "optuna",
                                                 "--optuna-sampler",
                                                 "tpe",
                                                 "--search-random-seed",
                                                 "3",
                                                 "--streaming",
                                                 "--isl",
                                                 "50",
                                                 "--request-count",
                                                 "8"},
                                                {}));
  INFO(tpe.out << tpe.err);
  REQUIRE(tpe.exit_code == 0);
  const auto th = tpe.json_file("search_history.json");
  CHECK(th["config"]["planner"] == "optuna");
  REQUIRE(th["iterations"].size() == 4);
  CHECK(th["convergence_reason"] == "max_iterations");
  CHECK(th["boundary_summary"].is_null());  // N-D: no single boundary
  for (size_t i = 0; i < 4; ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "search_iter_%04zu/profile_runs/run_0001", i);
    const auto cfg = read_json(tpe.dir + "/" + name + "/run_config.json");
    const auto& v = th["iterations"][i]["variation_values"];
    CHECK(cfg["loadgen"]["concurrency"] == v["phases.profiling.concurrency"]);
    CHECK(cfg["input"]["osl_mean"].get<double>() == v["datasets.main.prompts.osl"].get<double>());
  }
}

TEST_CASE("bad search options exit 2 naming the option, and nothing is written", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::vector<std::string> base = {"--url", "http://127.0.0.1:1", "--streaming", "--request-count", "2"};
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--search-metric", "output_token_throughput"},
       "Error: --search-* flags ['search_metric'] require --search-space."},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize"},
       "Error: --search-space requires --search-max-iterations (companion flag missing)."},
      {{"--search-space", "phases.profiling.concurrency:8,1:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "5"},
       "Error: --search-space "
       "'phases.profiling.concurrency:8,1:int': hi (1.0) "
       "must be > lo (8.0)."},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction", "up",
        "--search-max-iterations", "5"},
       "--search-direction"},
      {{"--search-max-iterations", "1"}, "--search-max-iterations: must be an integer from 2 to 200, got '1'"},
      {{"--search-sla", "time_to_first_token:p95:lt"},
       "Error: --search-sla 'time_to_first_token:p95:lt': expected 4 "
       "colon-separated parts"},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "5", "--search-planner", "monotonic_sla"},
       "Error: monotonic_sla planner requires at least one SLA filter"},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "10", "--search-planner", "optuna", "--optuna-sampler", "botorch",
        "--optuna-acquisition", "qlognehvi"},
       "Error: --optuna-acquisition 'qlognehvi' is multi-objective; got 1 objective. Use a single-objective "
       "acquisition (qlognei recommended) or add a second objective."},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "10", "--search-planner", "optuna", "--optuna-sampler", "tpe",
        "--optuna-acquisition", "qlognei"},
       "Error: --optuna-acquisition 'qlognei' requires --optuna-sampler botorch; got --optuna-sampler 'tpe'."},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "5", "--search-planner", "optuna"},
       "Error: n_initial_points (5) must be < max_iterations (5); otherwise the GP never fits."},
      {{"--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric", "x", "--search-direction",
        "maximize", "--search-max-iterations", "5", "--search-planner", "monotonic_sla", "--search-sla",
        "time_to_first_token:p95:lt:50", "--concurrency", "1,2"},
       "Error: --search-space: an adaptive search cannot be combined with a parameter sweep (--concurrency with a "
       "list)"},
      {{"--search-recipe", "nope"}, "Error: --search-recipe: Type 'nope' not found for category 'search_recipe'."},
      {{"--variant", "isl=128"}, "Error: --variant: single occurrence is rejected."},
      {{"--variant", "a: isl=128, osl", "--sweep-variant", "isl=1024"},
       "Error: --variant: variant 'a: isl=128, osl': token 'osl' is missing '=' (expected key=value)"},
      {{"--variant", "a: isl=128", "--variant", "b: nokey=1024"},
       "Error: --variant 'b: nokey=1024': unknown key(s) ['nokey']."},
      {{"--search-recipe", "max-throughput-ttft-sla"},
       "Error: recipe 'max-throughput-ttft-sla' requires --ttft-sla-ms"},
      {{"--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "50", "--search-space", "a:1,2"},
       "Error: --search-recipe 'max-concurrency-under-sla' is mutually exclusive with recipe-defining --search-* flags "
       "['search_space']."},
      {{"--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "50", "--concurrency-min", "9",
        "--concurrency-max", "8"},
       "Error: recipe 'max-concurrency-under-sla': --concurrency-min (9) must be < --concurrency-max (8)"},
      {{"--search-recipe", "max-concurrency-under-sla", "--itl-sla-ms", "5", "--tpot-sla-ms", "6"},
       "Error: --tpot-sla-ms and --itl-sla-ms are aliases for the same inter-token-latency SLA but were set to "
       "different values (6.0 vs 5.0); pass only one."},
      {{"--ttft-sla-ms", "0"}, "--ttft-sla-ms: must be a number > 0, got '0'"},
      {{"--bo-constraint-mode", "nope"}, "--bo-constraint-mode: nope not in {penalty,eic}"},
      {{"--error-rate-sla", "1"}, "--error-rate-sla: must be a number in (0, 1), got '1'"},
      {{"--search-sla-tier", "gold:time_to_first_token:p95:lt:100"},
       "Error: --search-sla-tier: expected between 2 and 10 tiers, got 1."},
  };
  int n = 0;
  for (const auto& [extra, message] : cases) {
    const std::string name = "bad" + std::to_string(n++);
    INFO(name << ": " << message);
    const auto run = aiperf::test::run_named(tmp, name, with(base, extra));
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(run.dir));
  }
}

TEST_CASE("without --streaming a TTFT recipe is refused as the reference refuses it", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const auto run = aiperf::test::run_named(
      tmp, "nostream", {"--url", "http://127.0.0.1:1", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "50"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("Error: recipe 'max-concurrency-under-sla' requires --streaming (SLA filters reference "
                     "streaming-only metrics (TTFT, ITL/TPOT)); enable streaming on the endpoint or pick a different "
                     "recipe.") != std::string::npos);
  // e2e and error-rate SLAs need no streaming; the default style is smooth_isotonic.
  const auto e2e = aiperf::test::run_named(
      tmp, "e2e",
      {"--url", "http://127.0.0.1:1", "--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "50",
       "--error-rate-sla", "0.1", "--dry-run"});
  INFO(e2e.out << e2e.err);
  CHECK(e2e.exit_code == 0);
  CHECK(e2e.out.find("search (smooth_isotonic) over phases.profiling.concurrency, at most 30 iterations") !=
        std::string::npos);
  // --dry-run accepts a native search and says what it would run.
  const auto dry = aiperf::test::run_named(
      tmp, "dry",
      {"--url", "http://127.0.0.1:1", "--search-recipe", "max-concurrency-under-sla", "--e2e-sla-ms", "50",
       "--search-style", "monotonic", "--dry-run"});
  INFO(dry.out << dry.err);
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("search (monotonic_sla) over phases.profiling.concurrency, at most 20 iterations") !=
        std::string::npos);
}

TEST_CASE("max-concurrency-under-sla (smooth_isotonic, the default style) finds the sweep's knee within one step", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  // The same knee as above, from the engine model: concurrency 4 passes, 5 queues.
  const auto sweep = aiperf::test::run_named(tmp, "sweep", with({"--url", mock.url(), "--concurrency", "3,4,5,6"}, kWorkload));
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.exit_code == 0);
  long sweep_knee = 2;
  for (int c = 3; c <= 6; ++c) {
    if (sweep.json_file("concurrency_" + std::to_string(c) + "/profile_export_aiperf.json")["time_to_first_token"]["p95"]
            .get<double>() >= kSlaMs)
      break;
    sweep_knee = c;
  }
  REQUIRE(sweep_knee >= 3);
  REQUIRE(sweep_knee < 6);
  // Each probe is preceded by a warmup at the probed value: AIPerf's 60 s / 30 s floors,
  // shortened through its environment knobs.
  for (const char* v : {"AIPERF_SEARCH_PLANNER_DEFAULT_WARMUP_SECONDS", "AIPERF_SEARCH_PLANNER_FIRST_PROBE_WARMUP_FLOOR",
                        "AIPERF_SEARCH_PLANNER_REPLICATE_WARMUP_FLOOR"})
    ::setenv(v, "0.2", 1);
  const auto search = aiperf::test::run_named(
      tmp, "search",
      with({"--url", mock.url(), "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "50",
            "--concurrency-max", "12"},
           kWorkload));
  for (const char* v : {"AIPERF_SEARCH_PLANNER_DEFAULT_WARMUP_SECONDS", "AIPERF_SEARCH_PLANNER_FIRST_PROBE_WARMUP_FLOOR",
                        "AIPERF_SEARCH_PLANNER_REPLICATE_WARMUP_FLOOR"})
    ::unsetenv(v);
  INFO(search.out << search.err);
  REQUIRE(search.exit_code == 0);
  const auto history = search.json_file("search_history.json");
  CHECK(history["config"]["planner"] == "smooth_isotonic");
  CHECK(history["recipe"] == "max-concurrency-under-sla");
  const long found = history["boundary_summary"]["feasible_max"]["value"].get<long>();
  CHECK(std::abs(found - sweep_knee) <= 1);
  CHECK(history["boundary_summary"]["binding_constraint"] == "0:time_to_first_token.p95.lt.50.0");
  CHECK(history["convergence_reason"].get<std::string>().rfind("smooth_isotonic_", 0) == 0);
  // The probe's own run: the probed concurrency, its warmup at that concurrency, 12 requests.
  const auto cfg = read_json(search.dir + "/search_iter_0000/profile_runs/run_0001/run_config.json");
  CHECK(cfg["loadgen"]["concurrency"] == 1);
  CHECK(search.out.find("Search finished (smooth_isotonic_") != std::string::npos);
}

TEST_CASE("concurrency-ramp sweeps log-spaced concurrencies and writes the degradation knee", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  // 1, 2, 4, 8 (log-spaced); TTFT avg degrades past twice the baseline once requests queue.
  const auto run = aiperf::test::run_named(
      tmp, "ramp",
      with({"--url", mock.url(), "--search-recipe", "concurrency-ramp", "--concurrency-max", "8", "--concurrency-steps",
            "4", "--degradation-threshold", "0.99", "--degradation-metric-tag", "time_to_first_token",
            "--degradation-stat", "avg", "--no-auto-plot"},
           kWorkload));
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto knee = run.json_file("sweep_aggregate/degradation_knee.json");
  std::vector<double> avg;
  for (int c : {1, 2, 4, 8})
    avg.push_back(run.json_file("concurrency_" + std::to_string(c) + "/profile_export_aiperf.json")["time_to_first_token"]
                      ["avg"]
                          .get<double>());
  // The expected knee from the points' own summaries: the first past baseline * 1.99.
  nlohmann::json expected = nullptr;
  const int conc[] = {1, 2, 4, 8};
  for (size_t i = 1; i < 4; ++i)
    if (avg[i] > avg[0] * 1.99) {
      expected = conc[i];
      break;
    }
  CHECK(knee["knee_concurrency"] == expected);
  CHECK(knee["knee_concurrency"] == 8);  // the engine has 4 slots
  CHECK(knee["baseline_concurrency"] == 1);
  CHECK(knee["baseline_avg"] == avg[0]);
  CHECK(knee["swept_metric"] == "time_to_first_token");
  CHECK(knee["threshold_pct"] == 0.99);
  REQUIRE(knee["all_points"].size() == 4);
  CHECK(knee["all_points"][3] == nlohmann::json{{"concurrency", 8}, {"avg", avg[3]}});
  CHECK_FALSE(fs::exists(run.dir + "/plots"));  // --no-auto-plot overrides the recipe's default
  // A list beside a grid recipe is refused, naming the field as the reference does.
  const auto bad = aiperf::test::run_named(
      tmp, "bad", {"--url", mock.url(), "--search-recipe", "concurrency-ramp", "--concurrency", "1,2"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("Error: --search-recipe (grid path) is mutually exclusive with magic-list flags ['concurrency']") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(bad.dir));
}

TEST_CASE("max-concurrency-under-sla --search-style grid sweeps and writes sla_breach.json", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "grid",
      with({"--url", mock.url(), "--search-recipe", "max-concurrency-under-sla", "--search-style", "grid",
            "--ttft-sla-ms", "50", "--error-rate-sla", "0.5", "--concurrency-max", "8"},
           kWorkload));
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // --error-rate-sla filters on request_error_rate (0 here: no errors): a point passes only if the
  // metric was measured, so the TTFT knee below also shows that every run reported it.
  // 8 log-spaced steps over [1, 8], duplicates collapsed.
  const std::vector<int> conc{1, 2, 3, 4, 6, 8};
  long max_passing = -1, first_failing = -1, feasible = 0;
  for (int c : conc) {
    const double p95 = run.json_file("concurrency_" + std::to_string(c) + "/profile_export_aiperf.json")
                           ["time_to_first_token"]["p95"]
                               .get<double>();
    if (p95 < kSlaMs) {
      max_passing = c;
      ++feasible;
    } else if (first_failing < 0) {
      first_failing = c;
    }
  }
  const auto breach = run.json_file("sweep_aggregate/sla_breach.json");
  CHECK(breach["max_passing_concurrency"] == max_passing);
  CHECK(breach["first_failing_concurrency"] == first_failing);
  CHECK(breach["max_passing_concurrency"] == 4);  // the engine has 4 slots
  CHECK(breach["all_points"].size() == conc.size());
  CHECK(breach["first_failing_breach"]["metric_tag"] == "time_to_first_token");
  const auto sweep = run.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["metadata"]["sla_constraints"]["feasible_count"] == feasible);
  CHECK(sweep["metadata"]["pareto_axes"]["y_metric"] == "concurrency");
  CHECK_FALSE(fs::exists(run.dir + "/plots"));  // this recipe does not plot by default
}

TEST_CASE("prefill-ttft-curve sweeps ISL at concurrency 1 and fits TTFT against it", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "prefill",
      {"--url", mock.url(), "--streaming", "--osl", "5", "--request-count", "4", "--concurrency", "3", "--search-recipe",
       "prefill-ttft-curve", "--isl-min", "16", "--isl-max", "64", "--isl-steps", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto curve = run.json_file("sweep_aggregate/prefill_curve.json");
  REQUIRE(curve["raw_points"].size() == 3);
  int i = 0;
  for (int isl : {16, 32, 64}) {
    // AIPerf's folder names: the recipe's path leaf, and the concurrency it pins to 1.
    const std::string point = "isl_" + std::to_string(isl) + "__concurrency_1";
    const auto summary = run.json_file(point + "/profile_export_aiperf.json");
    CHECK(run.json_file(point + "/run_config.json")["loadgen"]["concurrency"] == 1);
    CHECK(curve["raw_points"][i]["isl"] == static_cast<double>(isl));
    CHECK(curve["raw_points"][i]["ttft_ms"] == summary["time_to_first_token"]["avg"]);
    ++i;
  }
  CHECK(curve["swept_param"] == "datasets.main.prompts.isl");
  CHECK(curve["r_squared"].get<double>() <= 1.0);
  CHECK((curve["fit_form"] == "linear" || curve["fit_form"] == "quadratic"));
  const auto sweep = run.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["metadata"]["sweep_parameters"] ==
        nlohmann::json::parse(R"([{"name":"isl","values":[16,32,64]},{"name":"concurrency","values":[1]}])"));
  // As in AIPerf, this recipe plots by default (aiperf plot on the sweep).
  CHECK(fs::exists(run.dir + "/plots/report.html"));
}

TEST_CASE("decode-itl-curve sweeps concurrency x OSL and writes the measured ITL surface", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "decode",
      {"--url", mock.url(), "--streaming", "--isl", "32", "--request-count", "4", "--search-recipe", "decode-itl-curve",
       "--concurrency-min", "1", "--concurrency-max", "2", "--concurrency-steps", "2", "--osl-min", "8", "--osl-max",
       "16", "--osl-steps", "2", "--no-auto-plot"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto surface = run.json_file("sweep_aggregate/decode_itl_surface.json");
  CHECK(surface["swept_params"] == nlohmann::json::parse(R"(["phases.profiling.concurrency","datasets.main.prompts.osl"])"));
  CHECK(surface["surface_fit_failed"] == false);
  CHECK(surface["surface"]["concurrency_axis"] == nlohmann::json::parse("[1.0, 2.0]"));
  CHECK(surface["surface"]["osl_axis"] == nlohmann::json::parse("[8.0, 16.0]"));
  REQUIRE(surface["raw_points"].size() == 4);
  // AIPerf's folder names (the OSL path sorts first), and every cell is that folder's ITL avg.
  size_t i = 0;
  for (int c : {1, 2})
    for (int o : {8, 16}) {
      const std::string point = "osl_" + std::to_string(o) + "__concurrency_" + std::to_string(c);
      INFO(point);
      const double itl = run.json_file(point + "/profile_export_aiperf.json")["inter_token_latency"]["avg"].get<double>();
      CHECK(run.json_file(point + "/run_config.json")["loadgen"]["concurrency"] == c);
      CHECK(surface["raw_points"][i] == nlohmann::json{{"concurrency", double(c)}, {"osl", double(o)}, {"itl_ms", itl}});
      CHECK(surface["surface"]["itl_grid"][c - 1][o == 8 ? 0 : 1] == itl);
      ++i;
    }
  CHECK_FALSE(fs::exists(run.dir + "/plots"));
  // Tunable BO flags do not apply to a grid recipe, as in the reference.
  const auto bad = aiperf::test::run_named(
      tmp, "bad", {"--url", mock.url(), "--streaming", "--search-recipe", "decode-itl-curve", "--search-max-iterations", "5"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("Error: --search-recipe 'decode-itl-curve' expanded to a grid sweep, but tunable --search-* flags "
                     "['--search-max-iterations'] are only meaningful for BO recipes.") != std::string::npos);
  CHECK_FALSE(fs::exists(bad.dir));
}

TEST_CASE("pareto-sweep runs each ISL/OSL pair at each concurrency and marks the Pareto frontier", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "pareto",
      {"--url", mock.url(), "--streaming", "--request-count", "4", "--search-recipe", "pareto-sweep", "--isl-osl-pairs",
       "32/8, 64/16", "--concurrency", "1,2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto pareto = run.json_file("sweep_aggregate/pareto_sweep.json");
  CHECK(pareto["x_metric"] == "time_to_first_token");
  CHECK(pareto["y_metric"] == "output_token_throughput");
  const auto& cells = pareto["cells"];
  REQUIRE(cells.size() == 4);
  // Pair-major order; x and y are each point's own summary (one trial: the average).
  std::vector<std::pair<double, double>> xy;
  size_t i = 0;
  for (const auto& [isl, osl] : std::vector<std::pair<int, int>>{{32, 8}, {64, 16}})
    for (int c : {1, 2}) {
      const std::string point =
          "isl_" + std::to_string(isl) + "__osl_" + std::to_string(osl) + "__concurrency_" + std::to_string(c);
      INFO(point);
      const auto s = run.json_file(point + "/profile_export_aiperf.json");
      const auto cfg = run.json_file(point + "/run_config.json");
      CHECK(cfg["loadgen"]["concurrency"] == c);
      CHECK(cells[i]["isl"] == isl);
      CHECK(cells[i]["osl"] == osl);
      CHECK(cells[i]["concurrency"] == c);
      CHECK(cells[i]["x"] == s["time_to_first_token"]["avg"]);
      CHECK(cells[i]["y"] == s["output_token_throughput"]["avg"]);
      CHECK(s["input_sequence_length"]["avg"] == isl);
      xy.emplace_back(cells[i]["x"].get<double>(), cells[i]["y"].get<double>());
      // AIPerf's scenario label and keys name the point's aggregate.
      const auto agg = run.json_file("aggregate/concurrency_" + std::to_string(c) + "__isl_" + std::to_string(isl) +
                                     "__osl_" + std::to_string(osl) + "/profile_export_aiperf_aggregate.json");
      CHECK(agg["metadata"]["variation_label"] ==
            "shape_" + std::to_string(isl) + "_" + std::to_string(osl) + "_c" + std::to_string(c));
      CHECK(agg["metadata"]["variation_values"] == nlohmann::json{{"concurrency", c}, {"isl", isl}, {"osl", osl}});
      ++i;
    }
  for (size_t a = 0; a < xy.size(); ++a) {
    bool dominated = false;
    for (size_t b = 0; b < xy.size(); ++b)
      dominated = dominated || (b != a && xy[b].first <= xy[a].first && xy[b].second >= xy[a].second &&
                                (xy[b].first < xy[a].first || xy[b].second > xy[a].second));
    CHECK(cells[a]["pareto_optimal"] == !dominated);
  }
  const auto sweep = run.json_file("sweep_aggregate/profile_export_aiperf_sweep.json");
  CHECK(sweep["metadata"]["pareto_axes"]["series_keys"] == nlohmann::json::parse(R"(["isl","osl"])"));
  CHECK(sweep["per_combination_metrics"][3]["parameters"] ==
        nlohmann::json::parse(R"({"concurrency": 2, "isl": 64, "osl": 16})"));
  CHECK(sweep["metadata"]["sweep_parameters"] ==
        nlohmann::json::parse(R"([{"name":"concurrency","values":[1,2]},{"name":"isl","values":[32,64]},{"name":"osl","values":[8,16]}])"));
  // Refusals, as the reference words them (exit 2, nothing written).
  const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
      {{"--search-recipe", "pareto-sweep"},
       "Error: recipe 'pareto-sweep' requires --isl-osl-pairs (e.g. '128/128,256/256')."},
      {{"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "32/8,32/8"}, "Error: --isl-osl-pairs: duplicate pair '32/8'"},
      {{"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "32/8", "--concurrency", "4"},
       "Error: recipe 'pareto-sweep': a Pareto sweep with a single point is meaningless."},
      {{"--search-recipe", "pareto-sweep", "--isl-osl-pairs", "32/8", "--request-rate", "1,2"},
       "Error: --search-recipe (grid path) is mutually exclusive with magic-list flags ['request_rate']"},
  };
  int n = 0;
  for (const auto& [extra, message] : bad) {
    const std::string name = "bad" + std::to_string(n++);
    std::vector<std::string> a = {"--url", mock.url(), "--streaming"};
    a.insert(a.end(), extra.begin(), extra.end());
    const auto r = aiperf::test::run_named(tmp, name, a);
    INFO(name << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(r.dir));
  }
}

TEST_CASE("max-goodput-under-slo searches the concurrency where enough requests meet all three SLOs", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  const auto search = aiperf::test::run_named(
      tmp, "goodput",
      with({"--url", mock.url(), "--search-recipe", "max-goodput-under-slo", "--search-style", "monotonic",
            "--ttft-sla-ms", "50", "--tpot-sla-ms", "1000", "--e2e-sla-ms", "100000", "--slo-attainment-fraction", "0.9",
            "--concurrency-max", "6"},
           kWorkload));
  INFO(search.out << search.err);
  REQUIRE(search.exit_code == 0);
  const auto history = search.json_file("search_history.json");
  CHECK(history["recipe"] == "max-goodput-under-slo");
  CHECK(history["config"]["objectives"][0]["metric"] == "goodput");
  CHECK(history["config"]["sla_filters"][0] ==
        nlohmann::json::parse(R"({"metric_tag":"good_request_fraction","stat":"avg","op":"ge","threshold":0.9})"));
  // Every probe counted its good requests against the recipe's SLOs (--goodput), and its verdict
  // is its own summary's good_request_fraction against the attainment fraction.
  const auto& iterations = history["iterations"];
  REQUIRE(iterations.size() >= 4);
  long highest_feasible = 0;
  for (size_t i = 0; i < iterations.size(); ++i) {
    char name[128];
    std::snprintf(name, sizeof name, "search_iter_%04zu/profile_runs/run_0001/profile_export_aiperf.json", i);
    INFO(name);
    const auto s = read_json(search.dir + "/" + name);
    REQUIRE(s.contains("good_request_fraction"));
    const double fraction = s["good_request_fraction"]["avg"].get<double>();
    CHECK(fraction == s["good_request_count"]["avg"].get<double>() / s["request_count"]["avg"].get<double>());
    CHECK(iterations[i]["feasible"] == (fraction >= 0.9));
    CHECK(iterations[i]["objective_values"][0] == s["goodput"]["avg"]);
    if (iterations[i]["feasible"].get<bool>())
      highest_feasible = std::max(highest_feasible, iterations[i]["variation_values"]["phases.profiling.concurrency"].get<long>());
  }
  const auto cfg = read_json(search.dir + "/search_iter_0000/profile_runs/run_0001/run_config.json");
  CHECK(cfg.dump().find("time_to_first_token") != std::string::npos);  // the SLOs reached the run
  CHECK(history["boundary_summary"]["feasible_max"]["value"] == highest_feasible);
  CHECK(highest_feasible == 4);  // the engine has 4 slots; a fifth request waits ~100 ms for one

  // The reference's refusal: all three SLOs needed.
  const auto missing = aiperf::test::run_named(
      tmp, "missing", {"--url", mock.url(), "--streaming", "--search-recipe", "max-goodput-under-slo", "--ttft-sla-ms", "5"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("Error: recipe 'max-goodput-under-slo' requires --tpot-sla-ms, --e2e-sla-ms; all three "
                         "(--ttft-sla-ms, --tpot-sla-ms / --itl-sla-ms, --e2e-sla-ms) define what 'good' means per "
                         "request for the goodput formula.") != std::string::npos);
}

TEST_CASE("two --search-sla-tier tiers run the multi-tier planner, one boundary per tier", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock(kEngine, tmp);
  for (const char* v : {"AIPERF_SEARCH_PLANNER_DEFAULT_WARMUP_SECONDS", "AIPERF_SEARCH_PLANNER_FIRST_PROBE_WARMUP_FLOOR",
                        "AIPERF_SEARCH_PLANNER_REPLICATE_WARMUP_FLOOR"})
    ::setenv(v, "0.2", 1);
  // No --search-planner: the reference's default (bayesian) is not used once tiers are given.
  const auto search = aiperf::test::run_named(
      tmp, "tiers",
      with({"--url", mock.url(), "--search-space", "phases.profiling.concurrency:1,8:int", "--search-metric",
            "output_token_throughput", "--search-direction", "maximize", "--search-max-iterations", "20",
            "--search-sla-tier", "gold:time_to_first_token:p95:lt:50", "--search-sla-tier",
            "relaxed:time_to_first_token:p95:lt:100000"},
           kWorkload));
  for (const char* v : {"AIPERF_SEARCH_PLANNER_DEFAULT_WARMUP_SECONDS", "AIPERF_SEARCH_PLANNER_FIRST_PROBE_WARMUP_FLOOR",
                        "AIPERF_SEARCH_PLANNER_REPLICATE_WARMUP_FLOOR"})
    ::unsetenv(v);
  INFO(search.out << search.err);
  REQUIRE(search.exit_code == 0);
  const auto history = search.json_file("search_history.json");
  CHECK(history["convergence_reason"] == "multi_tier_all_converged");
  CHECK(history["config"]["tiers"][0]["label"] == "gold");
  // Each probe's verdict for gold, from its own summary; gold's boundary is the highest passing
  // value below the lowest failing one.
  const auto& iterations = history["iterations"];
  long gold_pass = 0, gold_fail = 1 << 20;
  for (size_t i = 0; i < iterations.size(); ++i) {
    char name[64];
    std::snprintf(name, sizeof name, "search_iter_%04zu/profile_runs/run_0001", i);
    const auto s = read_json(search.dir + "/" + name + "/profile_export_aiperf.json");
    const long c = iterations[i]["variation_values"]["phases.profiling.concurrency"].get<long>();
    CHECK(read_json(search.dir + "/" + name + "/run_config.json")["loadgen"]["concurrency"] == c);
    if (s["time_to_first_token"]["p95"].get<double>() < 50) gold_pass = std::max(gold_pass, c);
    else gold_fail = std::min(gold_fail, c);
    CHECK(iterations[i]["feasible"] == true);  // the relaxed tier passes everywhere
  }
  const auto& gold = history["tier_results"][0];
  CHECK(gold["boundary_concurrency"] == gold_pass);
  CHECK(gold["bracket_upper"] == gold_fail);
  CHECK(gold_fail == gold_pass + 1);
  CHECK(gold["convergence_status"] == "converged");
  CHECK(gold["binding_constraint"]["metric_tag"] == "time_to_first_token");
  CHECK(gold_pass == 4);  // the engine has 4 slots
  const auto& relaxed = history["tier_results"][1];
  CHECK(relaxed["boundary_concurrency"] == 8);
  CHECK(relaxed["convergence_status"] == "no_failure_in_range");
  CHECK(history["tier_metadata"]["ordering_detected"] == true);
  CHECK(history["tier_metadata"]["actual_probe_count"] == iterations.size());
  CHECK(history["boundary_summary"]["feasible_max"]["value"] == 8);
  CHECK(search.out.find("tier gold: concurrency 4 (converged); tier relaxed: concurrency 8 (no_failure_in_range)") !=
        std::string::npos);
  // --dry-run says which planner runs, and that the named one does not.
  const auto dry = aiperf::test::run_named(
      tmp, "dry",
      {"--url", mock.url(), "--streaming", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "50",
       "--search-style", "monotonic", "--search-sla-tier", "time_to_first_token:p95:lt:50", "--search-sla-tier",
       "time_to_first_token:p95:lt:100", "--dry-run"});
  INFO(dry.out << dry.err);
  CHECK(dry.exit_code == 0);
  CHECK(dry.out.find("search (multi_tier) over phases.profiling.concurrency, at most 20 iterations") != std::string::npos);
  CHECK(dry.out.find("note: the search algorithm for --search-style monotonic_sla is not used when --search-sla-tier is "
                     "active") != std::string::npos);
  // A tier count outside 2-10 and duplicate labels are refused, as the reference refuses them.
  const auto dup = aiperf::test::run_named(
      tmp, "dup",
      {"--url", mock.url(), "--streaming", "--search-recipe", "max-concurrency-under-sla", "--ttft-sla-ms", "50",
       "--search-sla-tier", "a:time_to_first_token:p95:lt:50", "--search-sla-tier", "a:time_to_first_token:p95:lt:100"});
  CHECK(dup.exit_code == 2);
  CHECK(dup.err.find("Error: --search-sla-tier: duplicate label 'a' (tiers 1 and 2). Each tier must have a unique "
                     "label.") != std::string::npos);
  CHECK_FALSE(fs::exists(dup.dir));
}
