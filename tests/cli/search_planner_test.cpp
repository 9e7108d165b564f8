// The native monotonic_sla planner against a fake server whose p95 TTFT crosses the SLA at a
// known concurrency: the exact probe/bisection sequence, the bracket, the convergence reason
// and the search_history.json document.
#include <catch2/catch.hpp>

#include "search_planner.h"

using namespace aiperf::cli::search;

namespace {

// A one-int-dimension TTFT search over [lo, hi].
Spec ttft_spec(double lo, double hi, int max_iterations, int stability) {
  Spec s;
  s.planner = "monotonic_sla";
  s.space.push_back({"phases.profiling.concurrency", lo, hi, "int", "uniform"});
  s.metric = "output_token_throughput";
  s.stat = "avg";
  s.direction = "maximize";
  s.max_iterations = max_iterations;
  s.stability_trials = stability;
  s.sla_filters.push_back({"time_to_first_token", "p95", "lt", 200.0});
  return s;
}

// One successful trial at concurrency c: TTFT p95 = 20 ms per concurrent request, throughput
// 100 tokens/s per request (so the SLA "< 200" holds up to c = 9).
aiperf::exporting::TrialResult trial_at(long long c) {
  aiperf::exporting::TrialResult t;
  t.label = "run_0001";
  t.success = true;
  t.metrics["time_to_first_token"] = {{"unit", "ms"}, {"p95", 20.0 * static_cast<double>(c)}};
  t.metrics["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", 100.0 * static_cast<double>(c)}};
  return t;
}

// Drives the planner to convergence and returns the values it asked for.
std::vector<long long> drive(Planner& p, const std::function<Trials(long long)>& run) {
  std::vector<long long> asked;
  while (auto v = p.ask()) {
    asked.push_back(v->get<long long>());
    p.tell(run(asked.back()));
  }
  return asked;
}

Trials one(long long c) { return {trial_at(c)}; }

}  // namespace

TEST_CASE("monotonic_sla probes by doubling, then bisects to the last feasible concurrency", "[unit]") {
  MonotonicSlaPlanner p(ttft_spec(1, 64, 30, 1));
  CHECK(drive(p, one) == std::vector<long long>{1, 2, 4, 8, 16, 12, 10, 9});
  CHECK(p.convergence_reason() == "monotonic_precision_reached");
  CHECK(p.feasible_max() == 9);
  CHECK(p.infeasible_min() == 10);
}

TEST_CASE("monotonic_sla asks each value until two verdicts agree (the default stability window)", "[unit]") {
  MonotonicSlaPlanner p(ttft_spec(1, 64, 40, 2));
  CHECK(drive(p, one) == std::vector<long long>{1, 1, 2, 2, 4, 4, 8, 8, 16, 16, 12, 12, 10, 10, 9, 9});
  CHECK(p.feasible_max() == 9);
  CHECK(p.infeasible_min() == 10);
}

TEST_CASE("monotonic_sla stops on 5% precision before the gap closes to one", "[unit]") {
  // Feasible up to 450 in [1, 1000]: 512 fails; bisection stops once (hi'-lo')/hi' < 0.05.
  auto run = [](long long c) {
    auto t = trial_at(c);
    t.metrics["time_to_first_token"]["p95"] = c <= 450 ? 100.0 : 300.0;
    return Trials{t};
  };
  MonotonicSlaPlanner p(ttft_spec(1, 1000, 50, 1));
  CHECK(drive(p, run) == std::vector<long long>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 384, 448, 480, 464});
  CHECK(p.convergence_reason() == "monotonic_precision_reached");
  CHECK(p.feasible_max() == 448);
  CHECK(p.infeasible_min() == 464);
}

TEST_CASE("monotonic_sla probes hi explicitly and reports no failure in range", "[unit]") {
  MonotonicSlaPlanner p(ttft_spec(1, 6, 30, 1));
  auto all_pass = [](long long c) {
    auto t = trial_at(c);
    t.metrics["time_to_first_token"]["p95"] = 1.0;
    return Trials{t};
  };
  CHECK(drive(p, all_pass) == std::vector<long long>{1, 2, 4, 6});
  CHECK(p.convergence_reason() == "monotonic_no_failure_in_range");
  CHECK(p.feasible_max() == 6);
  CHECK_FALSE(p.infeasible_min().has_value());
}

TEST_CASE("monotonic_sla stops at once when the lowest value fails", "[unit]") {
  MonotonicSlaPlanner p(ttft_spec(20, 64, 30, 1));
  CHECK(drive(p, one) == std::vector<long long>{20});
  CHECK(p.convergence_reason() == "monotonic_no_pass_in_range");
  CHECK(p.infeasible_min() == 20);
}

TEST_CASE("monotonic_sla stops at max_iterations", "[unit]") {
  MonotonicSlaPlanner p(ttft_spec(1, 64, 3, 1));
  CHECK(drive(p, one) == std::vector<long long>{1, 2, 4});
  CHECK(p.convergence_reason() == "max_iterations");
}

TEST_CASE("a failed or unmeasured trial is infeasible", "[unit]") {
  const auto f = SlaFilter{"time_to_first_token", "p95", "lt", 200.0};
  auto failed = trial_at(1);
  failed.success = false;
  CHECK_FALSE(feasible({failed}, {f}));
  auto missing = trial_at(1);
  missing.metrics.erase("time_to_first_token");
  CHECK_FALSE(feasible({missing}, {f}));
  CHECK(feasible({missing, trial_at(2)}, {f}));  // any one successful trial satisfying every filter
  CHECK_FALSE(trial_satisfies(trial_at(10), f));  // 200 is not < 200
  CHECK(trial_satisfies(trial_at(10), SlaFilter{"time_to_first_token", "p95", "le", 200.0}));
  const auto breach = first_breach({trial_at(10), trial_at(12)}, {f});
  CHECK(breach["metric_tag"] == "time_to_first_token");
  CHECK(breach["observed"].get<double>() == Approx(220.0));
}

TEST_CASE("search_history.json holds the config, every iteration, the best trial and the boundary", "[unit]") {
  Spec spec = ttft_spec(1, 64, 30, 1);
  spec.recipe = "max-concurrency-under-sla";
  MonotonicSlaPlanner p(spec);
  drive(p, one);
  const auto doc = history_json(spec, p, p.convergence_reason());
  CHECK(doc["config"]["planner"] == "monotonic_sla");
  CHECK(doc["config"]["objectives"][0]["direction"] == "MAXIMIZE");
  CHECK(doc["config"]["search_space"][0]["kind"] == "int");
  CHECK(doc["config"]["sla_filters"][0]["threshold"] == 200.0);
  REQUIRE(doc["iterations"].size() == 8);
  CHECK(doc["iterations"][4]["variation_values"]["phases.profiling.concurrency"] == 16);
  CHECK(doc["iterations"][4]["feasible"] == false);
  CHECK(doc["iterations"][3]["objective_values"][0] == 800.0);
  CHECK(doc["best_trials"][0]["iteration_idx"] == 7);  // concurrency 9, 900 tokens/s
  CHECK(doc["best_trials"][0]["feasible_count"] == 5);
  CHECK(doc["boundary_summary"]["feasible_max"]["value"] == 9);
  CHECK(doc["boundary_summary"]["feasible_max"]["objective_value"] == 900.0);
  CHECK(doc["boundary_summary"]["infeasible_min"]["value"] == 10);
  CHECK(doc["boundary_summary"]["infeasible_min"]["first_breach"]["observed"] == 200.0);
  CHECK(doc["recipe"] == "max-concurrency-under-sla");
  CHECK(doc["convergence_reason"] == "monotonic_precision_reached");
}

TEST_CASE("make_planner: the BO planners are native; the 1-D planners' own refusals", "[unit]") {
  Spec spec = ttft_spec(1, 64, 30, 1);
  spec.planner = "bayesian";
  CHECK(make_planner(spec) != nullptr);
  spec.planner = "optuna";
  CHECK(make_planner(spec) != nullptr);
  spec.planner = "monotonic_sla";
  spec.space.front().kind = "real";
  CHECK_THROWS_WITH(make_planner(spec), Catch::StartsWith("monotonic_sla planner v1 supports kind='int'"));
  spec.space.front().kind = "int";
  spec.sla_filters.clear();
  CHECK_THROWS_WITH(make_planner(spec), Catch::StartsWith("monotonic_sla planner requires at least one SLA filter"));
}

// ---- smooth_isotonic: sequences computed by AIPerf 0.13's SmoothIsotonicSLAPlanner itself on
// the same fake server (one successful trial per probe, TTFT p95 as given, SLA "< 200").

#include "search_isotonic_fit.h"
#include "search_smooth_isotonic.h"

namespace {

Trials ttft_of(long long c, double ttft) {
  auto t = trial_at(c);
  t.metrics["time_to_first_token"]["p95"] = ttft;
  return {t};
}

Spec smooth_spec(double lo, double hi, int max_iterations) {
  Spec s = ttft_spec(lo, hi, max_iterations, 1);
  s.planner = "smooth_isotonic";
  return s;
}

}  // namespace

TEST_CASE("isotonic regression pools adjacent violators", "[unit]") {
  CHECK(isotonic_increasing({1, 3, 2, 4, 3.5, 5}) == std::vector<double>{1, 2.5, 2.5, 3.75, 3.75, 5});
  CHECK(isotonic_increasing({3, 2, 1}) == std::vector<double>{2, 2, 2});
}

TEST_CASE("PCHIP matches SciPy's PchipInterpolator values and root", "[unit]") {
  const Pchip p({1, 2, 4, 8, 12, 16}, {-40, -38, -30, -10, 25, 60});
  CHECK(p(3) == Approx(-34.454703832752614).epsilon(1e-12));
  CHECK(p(5) == Approx(-25.598669623059866).epsilon(1e-12));
  CHECK(p(10) == Approx(6.3068181818181825).epsilon(1e-12));
  CHECK(p(14) == Approx(42.5).epsilon(1e-12));
  CHECK(*p.root_in(1, 16) == Approx(9.304415877341865).epsilon(1e-10));
  CHECK_FALSE(p.root_in(10, 16).has_value());
  CHECK(*Pchip({8, 16}, {-10, 50}).root_in(8, 16) == Approx(9.333333333333334).epsilon(1e-10));
}

TEST_CASE("smooth_isotonic brackets, fits three inner probes and lands on the boundary", "[unit]") {
  SmoothIsotonicPlanner p(smooth_spec(1, 64, 30));
  CHECK(drive(p, [](long long c) { return ttft_of(c, 20.0 * static_cast<double>(c)); }) ==
        std::vector<long long>{1, 2, 4, 8, 16, 10, 12, 14, 9});
  CHECK(p.convergence_reason() == "smooth_isotonic_precision_reached");
  CHECK(p.feasible_max() == 9);
  CHECK(p.infeasible_min() == 10);
  const auto b = p.boundary_summary();
  CHECK(b["boundary_type"] == "smooth");
  CHECK(b["binding_constraint"] == "0:time_to_first_token.p95.lt.200.0");
  CHECK(b["feasible_max"]["iteration_idx"] == 8);
  CHECK(b["infeasible_min"]["iteration_idx"] == 5);
}

TEST_CASE("smooth_isotonic on a smooth knee jumps to the fitted root", "[unit]") {
  SmoothIsotonicPlanner p(smooth_spec(1, 1000, 30));
  CHECK(drive(p, [](long long c) {
          const double x = static_cast<double>(c);
          return ttft_of(c, 30.0 + 0.01 * x * x);
        }) == std::vector<long long>{1, 2, 4, 8, 16, 32, 64, 128, 256, 160, 192, 224, 131});
  CHECK(p.feasible_max() == 128);
  CHECK(p.infeasible_min() == 131);
  CHECK(p.convergence_reason() == "smooth_isotonic_precision_reached");
}

TEST_CASE("smooth_isotonic on a step refits until the bracket is within 5%", "[unit]") {
  SmoothIsotonicPlanner p(smooth_spec(1, 1000, 30));
  CHECK(drive(p, [](long long c) { return ttft_of(c, c <= 450 ? 100.0 : 300.0); }) ==
        std::vector<long long>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 320, 384, 448, 456, 488, 449, 453});
  CHECK(p.feasible_max() == 449);
  CHECK(p.infeasible_min() == 453);
}

TEST_CASE("smooth_isotonic on a queueing cliff", "[unit]") {
  SmoothIsotonicPlanner p(smooth_spec(1, 64, 30));
  CHECK(drive(p, [](long long c) { return ttft_of(c, c <= 4 ? 3.0 : 300.0 + static_cast<double>(c)); }) ==
        std::vector<long long>{1, 2, 4, 8, 5, 6, 7});
  CHECK(p.convergence_reason() == "smooth_isotonic_precision_reached");
  CHECK(p.feasible_max() == 4);
  CHECK(p.infeasible_min() == 5);
}
