// The multi-tier SLO planner against AIPerf 0.13's own MultiTierPlanner: the same fake server
// (TTFT p95 = 20 ms x concurrency, ITL avg = 3 ms x concurrency, throughput 100 x concurrency)
// drives both; the probe sequence, verdicts, tier_results, tier_metadata and boundary_summary
// must equal what the reference produced. The goldens are tests/data/search/
// multi_tier_goldens.json, made by running the reference planner (config mutation stubbed out)
// with tests/data/search/multi_tier_goldens.py in the reference's virtual environment.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>

#include "search_multi_tier.h"

using namespace aiperf::cli::search;
using Json = nlohmann::ordered_json;

namespace {

const Json& goldens() {
  static const Json doc = [] {
    std::ifstream in(std::string(AIPERF_TEST_DATA) + "/search/multi_tier_goldens.json");
    return Json::parse(in);
  }();
  return doc;
}

aiperf::exporting::TrialResult trial(long long c, double ttft_per = 20.0, double itl_per = 3.0) {
  aiperf::exporting::TrialResult t;
  t.label = "run_0001";
  t.success = true;
  const double x = static_cast<double>(c);
  t.metrics["time_to_first_token"] = {{"unit", "ms"}, {"avg", ttft_per * x * 0.8}, {"p95", ttft_per * x}};
  t.metrics["inter_token_latency"] = {{"unit", "ms"}, {"avg", itl_per * x}};
  t.metrics["output_token_throughput"] = {{"unit", "tokens/sec"}, {"avg", 100.0 * x}};
  return t;
}

aiperf::exporting::TrialResult failed_trial() {
  aiperf::exporting::TrialResult t;
  t.label = "run_0001";
  t.error = "boom";
  return t;
}

SlaFilter filter(const std::string& raw) { return parse_sla_filter(raw); }

using Tiers = std::vector<std::pair<std::string, std::vector<std::string>>>;

Spec spec_of(long long lo, long long hi, const Tiers& tiers, const std::vector<std::string>& global = {},
             int max_iterations = 30) {
  Spec s;
  s.planner = "smooth_isotonic";
  s.space.push_back({"phases.profiling.concurrency", static_cast<double>(lo), static_cast<double>(hi), "int", "uniform"});
  s.metric = "output_token_throughput";
  s.stat = "avg";
  s.direction = "maximize";
  s.max_iterations = max_iterations;
  for (const auto& g : global) s.sla_filters.push_back(filter(g));
  for (const auto& [label, filters] : tiers) {
    SloTier t{label, {}};
    for (const auto& f : filters) t.filters.push_back(filter(f));
    s.tiers.push_back(t);
  }
  return s;
}

const Tiers kOrdered = {{"gold", {"time_to_first_token:p95:lt:100"}},
                        {"silver", {"time_to_first_token:p95:lt:200"}},
                        {"bronze", {"time_to_first_token:p95:lt:400"}}};

// Drives the planner to its end and checks every part of the golden scenario.
void check_scenario(const std::string& name, const Spec& spec, const std::function<Trials(long long)>& server) {
  INFO(name);
  const Json& gold = goldens().at(name);
  MultiTierPlanner p(spec, 0.05);
  std::vector<long long> asked;
  while (auto v = p.ask()) {
    asked.push_back(v->get<long long>());
    p.tell(server(asked.back()));
  }
  CHECK(Json(asked) == gold["asked"]);
  CHECK(p.convergence_reason() == gold["reason"]);
  Json feasible = Json::array(), non_monotonic = Json::array();
  for (const auto& it : p.history()) {
    feasible.push_back(it.feasible);
    non_monotonic.push_back(it.non_monotonic_warning);
  }
  CHECK(feasible == gold["feasible"]);
  CHECK(non_monotonic == gold["non_monotonic"]);
  CHECK(p.boundary_summary().dump() == gold["boundary"].dump());
  CHECK(p.tier_results().dump() == gold["tier_results"].dump());
  CHECK(p.tier_metadata().dump() == gold["tier_metadata"].dump());
}

}  // namespace

TEST_CASE("multi-tier: ordered tiers share probes and each finds its own boundary, as AIPerf's planner", "[unit]") {
  check_scenario("ORDERED", spec_of(1, 64, kOrdered), [](long long c) { return Trials{trial(c)}; });
}

TEST_CASE("multi-tier: tiers on different metrics, composed with a --search-sla filter", "[unit]") {
  check_scenario("MIXED",
                 spec_of(2, 100, {{"fast", {"time_to_first_token:p95:lt:100"}}, {"lean", {"inter_token_latency:avg:lt:30"}}},
                         {"output_token_throughput:avg:gt:150"}),
                 [](long long c) { return Trials{trial(c)}; });
}

TEST_CASE("multi-tier: every tier failing at lo ends at once (no_pass_in_range)", "[unit]") {
  check_scenario("NOPASS", spec_of(4, 64, kOrdered), [](long long c) { return Trials{trial(c, 200.0)}; });
}

TEST_CASE("multi-tier: every tier passing at hi ends there (no_failure_in_range)", "[unit]") {
  check_scenario("NOFAIL", spec_of(1, 16, kOrdered), [](long long c) { return Trials{trial(c, 1.0)}; });
}

TEST_CASE("multi-tier: a probe whose only trial failed counts as a failure for every tier", "[unit]") {
  check_scenario("FAILED_TRIALS", spec_of(1, 64, kOrdered), [](long long c) {
    return c == 16 ? Trials{failed_trial()} : Trials{trial(c), trial(c)};
  });
}

TEST_CASE("multi-tier: a noisy pass of the strict tier raises the lenient tiers' bounds too", "[unit]") {
  check_scenario("NOISY", spec_of(1, 64, kOrdered), [](long long c) { return Trials{trial(c, c == 8 ? 10.0 : 20.0)}; });
}

TEST_CASE("multi-tier: the iteration budget ends the search with tiers left partial", "[unit]") {
  check_scenario("BUDGET", spec_of(1, 1000, kOrdered, {}, 6), [](long long c) { return Trials{trial(c, 0.37)}; });
}

TEST_CASE("multi-tier: tier ordering needs the same metrics and ops with every threshold strictly harder", "[unit]") {
  auto tiers = [](const Tiers& t) { return spec_of(1, 8, t).tiers; };
  using P = std::vector<std::pair<size_t, size_t>>;
  CHECK(tier_ordering(tiers(kOrdered)) == P{{0, 1}, {0, 2}, {1, 2}});
  // gt: a higher threshold is harder.
  CHECK(tier_ordering(tiers({{"a", {"output_token_throughput:avg:gt:300"}}, {"b", {"output_token_throughput:avg:gt:100"}}})) ==
        P{{0, 1}});
  // One threshold equal: not strictly harder either way.
  CHECK(tier_ordering(tiers({{"a", {"time_to_first_token:p95:lt:100", "inter_token_latency:avg:lt:10"}},
                             {"b", {"time_to_first_token:p95:lt:200", "inter_token_latency:avg:lt:10"}}}))
            .empty());
  // Different stats, or different ops: no ordering.
  CHECK(tier_ordering(tiers({{"a", {"time_to_first_token:p95:lt:100"}}, {"b", {"time_to_first_token:p99:lt:200"}}})).empty());
  CHECK(tier_ordering(tiers({{"a", {"time_to_first_token:p95:lt:100"}}, {"b", {"time_to_first_token:p95:le:200"}}})).empty());
}

TEST_CASE("multi-tier: refuses what AIPerf's planner refuses", "[unit]") {
  Spec two_dims = spec_of(1, 8, kOrdered);
  two_dims.space.push_back({"phases.profiling.rate", 1, 8, "real", "uniform"});
  CHECK_THROWS_WITH(MultiTierPlanner(two_dims),
                    "multi_tier planner requires exactly one search-space dimension; got 2.");
  Spec real = spec_of(1, 8, kOrdered);
  real.space[0].kind = "real";
  CHECK_THROWS_WITH(MultiTierPlanner(real), "multi_tier planner supports kind='int' dimensions only; got kind='real' "
                                            "on path 'phases.profiling.concurrency'.");
  // Two tiers select this planner whatever the spec names (bayesian needs Python otherwise).
  Spec bayesian = spec_of(1, 8, kOrdered);
  bayesian.planner = "bayesian";
  CHECK(dynamic_cast<MultiTierPlanner*>(make_planner(bayesian).get()) != nullptr);
}

TEST_CASE("multi-tier: search_history.json carries tier_results and tier_metadata after boundary_summary", "[unit]") {
  Spec s = spec_of(1, 16, kOrdered);
  s.recipe = "max-concurrency-under-sla";
  MultiTierPlanner p(s);
  while (auto v = p.ask()) p.tell(Trials{trial(v->get<long long>(), 1.0)});
  const Json doc = history_json(s, p, p.convergence_reason());
  std::vector<std::string> keys;
  for (auto it = doc.begin(); it != doc.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"config", "iterations", "best_trials", "boundary_summary", "tier_results",
                                         "tier_metadata", "recipe", "convergence_reason"});
  CHECK(doc["config"]["tiers"].size() == 3);
  CHECK(doc["config"]["tiers"][1]["label"] == "silver");
  CHECK(doc["tier_results"][2]["boundary_concurrency"] == 16);
  CHECK(doc["convergence_reason"] == "multi_tier_all_converged");
  CHECK(p.progress() == "multi_tier probe@16: gold:PASS[converged@16] | silver:PASS[converged@16] | "
                        "bronze:PASS[converged@16] (3/3 tiers converged)");
}
