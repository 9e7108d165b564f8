// The --search-space / --search-sla / --search-sla-tier grammar and the reference's messages.
#include <catch2/catch.hpp>

#include "search_spec.h"

using namespace aiperf::cli::search;

TEST_CASE("a search-space dimension is path:lo,hi with an optional kind", "[unit]") {
  const Dimension d = parse_dimension("phases.profiling.concurrency:1,1000:int");
  CHECK(d.path == "phases.profiling.concurrency");
  CHECK(d.lo == 1.0);
  CHECK(d.hi == 1000.0);
  CHECK(d.kind == "int");
  CHECK(parse_dimension("phases.profiling.rate:0.5,20").kind == "real");
}

TEST_CASE("bad search-space values get the reference's messages", "[unit]") {
  CHECK_THROWS_WITH(parse_dimension("x"), "--search-space 'x': expected 'path:lo,hi[:kind]', e.g. "
                                          "'phases.profiling.concurrency:1,1000:int'.");
  CHECK_THROWS_WITH(parse_dimension("a:1,2:int:x"), "--search-space 'a:1,2:int:x': expected 'path:lo,hi[:kind]', got 4 parts.");
  CHECK_THROWS_WITH(parse_dimension("a:1,2:float"), "--search-space 'a:1,2:float': kind must be 'int' or 'real', got 'float'.");
  CHECK_THROWS_WITH(parse_dimension("a,b:1:int"), "--search-space 'a,b:1:int': expected 'path:lo,hi[:kind]', missing ',' in bounds.");
  CHECK_THROWS_WITH(parse_dimension("a:1,x"), "--search-space 'a:1,x': could not parse bound as float (could not convert "
                                              "string to float: 'x').");
  CHECK_THROWS_WITH(parse_dimension("a:8,1:int"), "--search-space 'a:8,1:int': hi (1.0) must be > lo (8.0).");
}

TEST_CASE("an SLA filter is metric:stat:op:threshold", "[unit]") {
  const SlaFilter f = parse_sla_filter("time_to_first_token:p95:lt:200");
  CHECK(f.metric_tag == "time_to_first_token");
  CHECK(f.stat == "p95");
  CHECK(f.op == "lt");
  CHECK(f.threshold == 200.0);
  CHECK_THROWS_WITH(parse_sla_filter("ttft:p95:lt"), "--search-sla 'ttft:p95:lt': expected 4 colon-separated parts "
                                                     "'metric_tag:stat:op:threshold', got 3. Example: "
                                                     "'time_to_first_token:p95:lt:200'.");
  CHECK_THROWS_WITH(parse_sla_filter("ttft:p42:lt:1"),
                    "--search-sla 'ttft:p42:lt:1': unknown stat 'p42'; expected one of ('avg', 'p1', 'p5', 'p10', "
                    "'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'min', 'max').");
  CHECK_THROWS_WITH(parse_sla_filter("ttft:p95:eq:1"),
                    "--search-sla 'ttft:p95:eq:1': unknown op 'eq'; expected one of ('lt', 'le', 'gt', 'ge').");
  CHECK_THROWS_WITH(parse_sla_filter("ttft:p95:lt:fast"), "--search-sla 'ttft:p95:lt:fast': threshold 'fast' is not a float.");
}

TEST_CASE("SLO tiers take a label or get tier_N, and need 2 to 10 unique labels", "[unit]") {
  const SloTier a = parse_sla_tier("gold:time_to_first_token:p95:lt:100,inter_token_latency:p95:lt:10", 0);
  CHECK(a.label == "gold");
  REQUIRE(a.filters.size() == 2);
  CHECK(a.filters[1].metric_tag == "inter_token_latency");
  const SloTier b = parse_sla_tier("time_to_first_token:p95:lt:300", 1);
  CHECK(b.label == "tier_2");
  CHECK_THROWS_WITH(check_tiers({a}), "--search-sla-tier: expected between 2 and 10 tiers, got 1.");
  CHECK_THROWS_WITH(check_tiers({a, b, a}), "--search-sla-tier: duplicate label 'gold' (tiers 1 and 3). Each tier must "
                                            "have a unique label.");
  CHECK_NOTHROW(check_tiers({a, b}));
  CHECK_THROWS_WITH(parse_sla_tier("gold:", 0), "--search-sla-tier 'gold:': tier 'gold' contains zero filters. Each tier "
                                                "must have at least one filter in 'metric_tag:stat:op:threshold' format.");
  CHECK_THROWS_WITH(parse_sla_tier("gold:ttft:p95:zz:1", 0),
                    "--search-sla-tier 'gold:ttft:p95:zz:1': error parsing filter 'ttft:p95:zz:1' in tier 'gold': "
                    "--search-sla 'ttft:p95:zz:1': unknown op 'zz'; expected one of ('lt', 'le', 'gt', 'ge').");
}

TEST_CASE("the paths a search can set map to their options", "[unit]") {
  CHECK(option_for_path("phases.profiling.concurrency") == "--concurrency");
  CHECK(option_for_path("phases.profiling.rate") == "--request-rate");
  CHECK_FALSE(option_for_path("phases.profiling.nope").has_value());
}

// ---- grid recipes: the log-spaced values and the degradation knee, as AIPerf 0.13 computes them.

#include "search_post_process.h"

TEST_CASE("log-spaced integer steps match AIPerf's _logspace_int_steps", "[unit]") {
  CHECK(logspace_int_steps(1, 1000, 8) == std::vector<long long>{1, 3, 7, 19, 52, 139, 373, 1000});
  CHECK(logspace_int_steps(1, 64, 6) == std::vector<long long>{1, 2, 5, 12, 28, 64});
  CHECK(logspace_int_steps(2, 10, 5) == std::vector<long long>{2, 3, 4, 7, 10});
  CHECK(logspace_int_steps(1, 3, 8) == std::vector<long long>{1, 2, 3});  // duplicates collapsed
  CHECK_THROWS_WITH(logspace_int_steps(1, 8, 1), Catch::StartsWith("_logspace_int_steps: steps must be >= 2 (got 1)"));
}

TEST_CASE("the degradation knee is the first value past baseline * (1 + threshold)", "[unit]") {
  nlohmann::ordered_json sweep;
  for (const auto& [c, m] : std::vector<std::pair<int, double>>{{4, 12.0}, {1, 10.0}, {2, 11.0}, {8, 30.5}})
    sweep["per_combination_metrics"].push_back(
        {{"parameters", {{"concurrency", c}}}, {"metrics", {{"request_latency", {{"mean", m}, {"p99", m * 2}}}}}});
  const nlohmann::ordered_json params{{"threshold_pct", 0.2},
                                      {"metric_tag", "request_latency"},
                                      {"stat", "p99"},
                                      {"swept_param", "phases.profiling.concurrency"}};
  // The reference's own output on the same document (one trial per point: the mean is used).
  CHECK(degradation_knee(sweep, params).dump() ==
        R"({"baseline_concurrency":1,"baseline_p99":10.0,"knee_concurrency":8,"knee_p99":30.5,"threshold_pct":0.2,)"
        R"("swept_metric":"request_latency","stat":"p99","swept_param":"phases.profiling.concurrency",)"
        R"("all_points":[{"concurrency":1,"p99":10.0},{"concurrency":2,"p99":11.0},{"concurrency":4,"p99":12.0},)"
        R"({"concurrency":8,"p99":30.5}]})");
  nlohmann::ordered_json flat;
  for (const auto& [c, m] : std::vector<std::pair<int, double>>{{1, 10.0}, {2, 11.0}})
    flat["per_combination_metrics"].push_back(
        {{"parameters", {{"concurrency", c}}}, {"metrics", {{"request_latency_p99", {{"mean", m}}}}}});
  const auto none = degradation_knee(flat, params);
  CHECK(none["knee_concurrency"].is_null());
  CHECK(none["knee_p99"].is_null());
  CHECK_THROWS_WITH(degradation_knee(flat, {{"threshold_pct", 0.2},
                                            {"metric_tag", "time_to_first_token"},
                                            {"stat", "p99"},
                                            {"swept_param", "phases.profiling.concurrency"}}),
                    Catch::StartsWith("post-process: sweep aggregate has no rows with parameter"));
}

TEST_CASE("sweep rows are judged against SLA filters in either metric layout", "[unit]") {
  const nlohmann::ordered_json one{{"metrics", {{"time_to_first_token", {{"mean", 3.0}, {"p95", 60.0}}}}}};
  CHECK_FALSE(row_passes(one, "time_to_first_token", "p95", "lt", 50));
  CHECK(row_passes(one, "time_to_first_token", "p95", "lt", 61));
  const nlohmann::ordered_json many{{"metrics", {{"time_to_first_token_p95", {{"mean", 40.0}}}}}};
  CHECK(row_passes(many, "time_to_first_token", "p95", "le", 40));
  CHECK_FALSE(row_passes(many, "inter_token_latency", "p95", "lt", 40));  // missing: fails
  const auto md = with_sweep_metadata(
      {{"sweep_parameters", 1}, {"num_combinations", 2}, {"sweep_mode", "repeated"}, {"aggregation_type", "sweep"}},
      {{"feasible_count", 1}}, recipe_pareto_axes("max-concurrency-under-sla"));
  std::vector<std::string> keys;
  for (auto it = md.begin(); it != md.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"sweep_parameters", "num_combinations", "sla_constraints", "sweep_mode",
                                         "pareto_axes", "aggregation_type"});
  CHECK(md["pareto_axes"]["y_stat"] == "value");
  CHECK(recipe_pareto_axes("nope").is_null());
}

TEST_CASE("sla_breach.json: the feasibility boundary along the swept value", "[unit]") {
  nlohmann::ordered_json sweep;
  for (const auto& [c, p95] : std::vector<std::pair<int, double>>{{8, 90.0}, {1, 3.0}, {4, 4.0}, {2, 3.5}})
    sweep["per_combination_metrics"].push_back(
        {{"parameters", {{"concurrency", c}}}, {"metrics", {{"time_to_first_token", {{"mean", 1.0}, {"p95", p95}}}}}});
  const nlohmann::ordered_json params{
      {"sla_filters", {{{"metric_tag", "time_to_first_token"}, {"stat", "p95"}, {"op", "lt"}, {"threshold", 50.0}}}},
      {"swept_param", "phases.profiling.concurrency"}};
  const auto out = sla_breach_knee(sweep, params);
  // AIPerf's SLABreachKnee on the same document.
  CHECK(out.dump() ==
        R"({"swept_param":"phases.profiling.concurrency","max_passing_concurrency":4,"first_failing_concurrency":8,)"
        R"("first_failing_breach":{"metric_tag":"time_to_first_token","stat":"p95","op":"lt","threshold":50.0,"observed":90.0},)"
        R"("all_points":[{"concurrency":1,"feasible":true,"breaches":[]},{"concurrency":2,"feasible":true,"breaches":[]},)"
        R"({"concurrency":4,"feasible":true,"breaches":[]},{"concurrency":8,"feasible":false,"breaches":[{"metric_tag":)"
        R"("time_to_first_token","stat":"p95","op":"lt","threshold":50.0,"observed":90.0}]}],"monotonicity_check":true,)"
        R"("filters":[{"metric_tag":"time_to_first_token","stat":"p95","op":"lt","threshold":50.0}]})");
}

TEST_CASE("prefill_curve.json: a line through TTFT vs ISL, a quadratic when the line fits poorly", "[unit]") {
  auto sweep_of = [](const std::vector<std::pair<int, double>>& pts) {
    nlohmann::ordered_json s;
    for (const auto& [isl, ttft] : pts)
      s["per_combination_metrics"].push_back(
          {{"parameters", {{"isl", isl}}}, {"metrics", {{"time_to_first_token", {{"mean", ttft}}}}}});
    return s;
  };
  const nlohmann::ordered_json params{
      {"metric_tag", "time_to_first_token"}, {"stat", "avg"}, {"swept_param", "datasets.main.prompts.isl"}};
  // Expected numbers: AIPerf's TTFTCurveFit (numpy.polyfit) on the same documents.
  const auto line = ttft_curve_fit(sweep_of({{256, 12.0}, {512, 20.5}, {1024, 41.0}, {2048, 95.0}}), params);
  CHECK(line["fit_form"] == "linear");
  CHECK(line["coefficients"][0].get<double>() == Approx(0.04689198369565219).epsilon(1e-12));
  CHECK(line["coefficients"][1].get<double>() == Approx(-2.89130434782611).epsilon(1e-10));
  CHECK(line["r_squared"].get<double>() == Approx(0.9930043996053056).epsilon(1e-12));
  CHECK(line["below_floor"] == false);
  CHECK(line["raw_points"][0].dump() == R"({"isl":256.0,"ttft_ms":12.0})");
  const auto quad = ttft_curve_fit(sweep_of({{16, 5.0}, {32, 4.0}, {64, 9.0}, {128, 3.0}}), params);
  CHECK(quad["fit_form"] == "quadratic");
  CHECK(quad["coefficients"][0].get<double>() == Approx(-0.0014490927419354878).epsilon(1e-10));
  CHECK(quad["coefficients"][1].get<double>() == Approx(0.2022177419354845).epsilon(1e-10));
  CHECK(quad["coefficients"][2].get<double>() == Approx(1.0).epsilon(1e-10));
  CHECK(quad["r_squared"].get<double>() == Approx(0.6990283715507188).epsilon(1e-10));
  CHECK(quad["below_floor"] == true);
}
