// decode-itl-curve, pareto-sweep and max-goodput-under-slo, the pure parts: the post-process
// handlers (itl_surface_fit, pareto_sweep_export), Pareto dominance, --isl-osl-pairs, the
// recipes' sweeps (folders, values, labels) and the goodput SLO merge.
// Expected documents: AIPerf 0.13's own handlers (ItlSurfaceFit, ParetoSweepExport,
// mark_pareto_optimal, parse_isl_osl_pairs) run on the same inputs in the reference's virtual
// environment (~/.cache/aiperf-compat/aiperf-0.13.0/bin/python), their output pasted here.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "search_grid.h"
#include "search_itl_surface.h"
#include "search_pareto.h"
#include "search_post_process.h"

using namespace aiperf::cli::search;
using Json = nlohmann::ordered_json;

namespace {

Json row(Json params, Json metrics) { return {{"parameters", std::move(params)}, {"metrics", std::move(metrics)}}; }

const Json kItlParams = {{"metric_tag", "inter_token_latency"},
                         {"stat", "avg"},
                         {"concurrency_param", "phases.profiling.concurrency"},
                         {"osl_param", "datasets.main.prompts.osl"}};

// Rows out of order, a missing cell (c=4, osl=256), flat and tag-only blocks, parameters by
// path and by leaf, a negative and a NaN (null in JSON) row dropped, a row without the metric.
Json itl_rows() {
  return Json::array({
      row({{"concurrency", 4}, {"osl", 64}}, {{"inter_token_latency", {{"mean", 14.5}, {"avg", 14.5}}}}),
      row({{"phases.profiling.concurrency", 1}, {"datasets.main.prompts.osl", 256}},
          {{"inter_token_latency_avg", {{"mean", 10.25}}}}),
      row({{"concurrency", 1}, {"osl", 64}}, {{"inter_token_latency_avg", {{"mean", 9.75}}}}),
      row({{"concurrency", 2}, {"osl", 64}}, {{"inter_token_latency", {{"mean", -1.0}}}}),
      row({{"concurrency", 2}, {"osl", 256}}, {{"inter_token_latency", {{"mean", nullptr}}}}),
      row({{"concurrency", 8}, {"osl", 64}}, {{"request_latency", {{"mean", 3.0}}}}),
      row({{"concurrency", 2}, {"osl", 128}}, {{"inter_token_latency", {{"mean", 11.0}}}}),
  });
}

std::string what(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("itl_surface_fit builds AIPerf's grid: sorted axes, null for unmeasured cells", "[unit]") {
  const Json out = itl_surface_fit({{"per_combination_metrics", itl_rows()}}, kItlParams);
  CHECK(out.dump() ==
        Json::parse(R"({"swept_metric": "inter_token_latency", "stat": "avg", "swept_params": ["phases.profiling.concurrency", "datasets.main.prompts.osl"], "raw_points": [{"concurrency": 1.0, "osl": 64.0, "itl_ms": 9.75}, {"concurrency": 1.0, "osl": 256.0, "itl_ms": 10.25}, {"concurrency": 2.0, "osl": 128.0, "itl_ms": 11.0}, {"concurrency": 4.0, "osl": 64.0, "itl_ms": 14.5}], "surface": {"concurrency_axis": [1.0, 2.0, 4.0], "osl_axis": [64.0, 128.0, 256.0], "itl_grid": [[9.75, null, 10.25], [null, 11.0, null], [14.5, null, null]]}, "surface_fit_failed": false})")
            .dump());
}

TEST_CASE("itl_surface_fit: under two usable rows is a failure document, and no candidate row an error", "[unit]") {
  const Json rows = itl_rows();
  const Json out = itl_surface_fit({{"per_combination_metrics", Json::array({rows[0], rows[3]})}}, kItlParams);
  CHECK(out.dump() ==
        Json::parse(R"({"swept_metric": "inter_token_latency", "stat": "avg", "swept_params": ["phases.profiling.concurrency", "datasets.main.prompts.osl"], "raw_points": [{"concurrency": 4.0, "osl": 64.0, "itl_ms": 14.5}], "surface": {"concurrency_axis": [], "osl_axis": [], "itl_grid": []}, "surface_fit_failed": true, "error_reason": "itl_surface_fit: fewer than 2 finite-positive rows after dropping non-finite/negative ITL (kept 1, dropped 0 non-finite + 1 negative); check that streaming was enabled and that swept cells produced successful requests."})")
            .dump());
  CHECK(what([&] { itl_surface_fit({{"per_combination_metrics", Json::array({rows[5]})}}, kItlParams); }) ==
        "itl_surface_fit: sweep aggregate has no rows with parameters 'phases.profiling.concurrency' + "
        "'datasets.main.prompts.osl' and metric 'inter_token_latency' (flat key 'inter_token_latency_avg'); check "
        "that the recipe swept both axes and streaming was enabled.");
  Json bad = kItlParams;
  bad["stat"] = "p98";
  CHECK(what([&] { itl_surface_fit({{"per_combination_metrics", itl_rows()}}, bad); }) ==
        "itl_surface_fit: params['stat']='p98' is not a recognized statistic; expected one of ('avg', 'p50', 'p90', "
        "'p95', 'p99').");
}

TEST_CASE("pareto_sweep_export marks the frontier as AIPerf's handler does", "[unit]") {
  // Single-trial rows (tag-only blocks: the mean, i.e. the average, whatever the stat), a
  // multi-trial row (flat keys), a tie (two cells at (20, 180): both optimal), and a row
  // without its concurrency (left out).
  const Json rows = Json::array({
      row({{"isl", 128}, {"osl", 128}, {"concurrency", 1}},
          {{"time_to_first_token", {{"mean", 10.0}, {"p95", 12.0}}}, {"output_token_throughput", {{"mean", 50.0}}}}),
      row({{"isl", 128}, {"osl", 128}, {"concurrency", 4}},
          {{"time_to_first_token", {{"mean", 20.0}}}, {"output_token_throughput", {{"mean", 180.0}}}}),
      row({{"isl", 128}, {"osl", 128}, {"concurrency", 16}},
          {{"time_to_first_token_p95", {{"mean", 80.0}}}, {"output_token_throughput_avg", {{"mean", 170.0}}}}),
      row({{"isl", 512}, {"osl", 256}, {"concurrency", 1}},
          {{"time_to_first_token", {{"mean", 20.0}}}, {"output_token_throughput", {{"mean", 180.0}}}}),
      row({{"isl", 512}, {"osl", 256}, {"concurrency", 4}},
          {{"time_to_first_token", {{"mean", 35.0}}}, {"output_token_throughput", {{"mean", 400.0}}}}),
      row({{"isl", 512}, {"osl", 256}},
          {{"time_to_first_token", {{"mean", 1.0}}}, {"output_token_throughput", {{"mean", 999.0}}}}),
      row({{"isl", 2048}, {"osl", 512}, {"concurrency", 1}},
          {{"time_to_first_token", {{"mean", 5.0}}}, {"output_token_throughput", {{"mean", 40.0}}}}),
  });
  const Json params = {{"x_metric", "time_to_first_token"}, {"x_stat", "p95"}, {"y_metric", "output_token_throughput"},
                       {"y_stat", "avg"}, {"isl_key", "isl"}, {"osl_key", "osl"}, {"concurrency_key", "concurrency"}};
  CHECK(pareto_sweep_export({{"per_combination_metrics", rows}}, params).dump() ==
        Json::parse(R"({"x_metric": "time_to_first_token", "x_stat": "p95", "y_metric": "output_token_throughput", "y_stat": "avg", "cells": [{"isl": 128, "osl": 128, "concurrency": 1, "x": 10.0, "y": 50.0, "pareto_optimal": true}, {"isl": 128, "osl": 128, "concurrency": 4, "x": 20.0, "y": 180.0, "pareto_optimal": true}, {"isl": 128, "osl": 128, "concurrency": 16, "x": 80.0, "y": 170.0, "pareto_optimal": false}, {"isl": 512, "osl": 256, "concurrency": 1, "x": 20.0, "y": 180.0, "pareto_optimal": true}, {"isl": 512, "osl": 256, "concurrency": 4, "x": 35.0, "y": 400.0, "pareto_optimal": true}, {"isl": 2048, "osl": 512, "concurrency": 1, "x": 5.0, "y": 40.0, "pareto_optimal": true}]})")
            .dump());
  CHECK(what([&] { pareto_sweep_export({{"per_combination_metrics", Json::array({rows[5]})}}, params); }) ==
        "pareto_sweep_export: no rows with the expected (isl, osl, concurrency) parameters and metrics "
        "(time_to_first_token_p95, output_token_throughput_avg); check that the recipe ran end-to-end with --streaming.");
}

TEST_CASE("Pareto dominance honours the axis directions and leaves non-finite points off the frontier", "[unit]") {
  // AIPerf's mark_pareto_optimal(x_minimize=False, y_maximize=False) on the finite points gives
  // [False, True, False, True, True]; the NaN point is quarantined (not optimal).
  std::vector<ParetoPoint> pts = {{1, 1}, {2, 1}, {1, 2}, {3, 3}, {3, 3}, {std::nan(""), 9}};
  mark_pareto_optimal(pts, false, false);
  std::vector<bool> got;
  for (const auto& p : pts) got.push_back(p.optimal);
  CHECK(got == std::vector<bool>{false, true, false, true, true, false});
  // The default directions (lower x, higher y).
  std::vector<ParetoPoint> def = {{10, 50}, {20, 40}, {5, 50}, {std::numeric_limits<double>::infinity(), 100}};
  mark_pareto_optimal(def);
  CHECK((!def[0].optimal && !def[1].optimal && def[2].optimal && !def[3].optimal));
}

TEST_CASE("pareto-sweep: --isl-osl-pairs is parsed with AIPerf's tolerance and messages", "[unit]") {
  using Pairs = std::vector<std::pair<long long, long long>>;
  CHECK(parse_isl_osl_pairs(" 128/128 , 512 / 256,,2048/512 ") == Pairs{{128, 128}, {512, 256}, {2048, 512}});
  CHECK(parse_isl_osl_pairs("+1_0/3") == Pairs{{10, 3}});
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "--isl-osl-pairs: at least one pair required, got empty string"},
      {" , ", "--isl-osl-pairs: at least one pair required after parsing"},
      {"128", "--isl-osl-pairs: '128' expected '<isl>/<osl>' (one slash)"},
      {"1/2/3", "--isl-osl-pairs: '1/2/3' expected '<isl>/<osl>' (one slash)"},
      {"a/1", "--isl-osl-pairs: 'a/1' both sides must be a positive int"},
      {"0/5", "--isl-osl-pairs: '0/5' both sides must be a positive int"},
      {"-1/5", "--isl-osl-pairs: '-1/5' both sides must be a positive int"},
      {"1/2,1/2", "--isl-osl-pairs: duplicate pair '1/2'"},
      {"1_/2", "--isl-osl-pairs: '1_/2' both sides must be a positive int"},
  };
  for (const auto& [raw, message] : bad) {
    INFO(raw);
    CHECK(what([&] { parse_isl_osl_pairs(raw); }) == message);
  }
}

TEST_CASE("decode-itl-curve sweeps concurrency x OSL in AIPerf's folder order", "[unit]") {
  GridRecipe g;
  g.recipe = "decode-itl-curve";
  g.option = "--concurrency";
  g.path = "phases.profiling.concurrency";
  g.values = {1, 2};
  g.more_axes.push_back({"--osl", "datasets.main.prompts.osl", {8, 16}});
  const auto given = aiperf::cli::sweep::extract_lists({"--streaming", "--osl", "5", "--concurrency", "3"});
  const auto rs = recipe_sweep(g, given, aiperf::cli::sweep::SweepType::kGrid);
  CHECK(rs.sweep_type == aiperf::cli::sweep::SweepType::kGrid);
  auto points = aiperf::cli::sweep::expand(rs.lists.parameters, rs.sweep_type);
  std::vector<std::string> dirs;
  for (const auto& p : points) dirs.push_back(p.dir_name);
  CHECK(dirs == std::vector<std::string>{"osl_8__concurrency_1", "osl_8__concurrency_2", "osl_16__concurrency_1",
                                         "osl_16__concurrency_2"});
  // The recipe's lists replace the values given; a list given beside the recipe is refused.
  CHECK(aiperf::cli::sweep::point_args(rs.lists, points[3]) ==
        std::vector<std::string>{"--streaming", "--concurrency", "2", "--osl", "16"});
  const auto listed = aiperf::cli::sweep::extract_lists({"--osl", "5,6"});
  CHECK(what([&] { recipe_sweep(g, listed, aiperf::cli::sweep::SweepType::kGrid); }) ==
        "--search-recipe (grid path) is mutually exclusive with magic-list flags ['prompt_output_tokens_mean'] -- the "
        "recipe owns the sweep parameters. Drop the list-shaped flag, or drop --search-recipe and configure the sweep "
        "by hand.");
}

TEST_CASE("pareto-sweep pairs ISL with OSL and crosses each pair with the --concurrency list", "[unit]") {
  GridRecipe g;
  g.recipe = "pareto-sweep";
  g.option = "--concurrency";
  g.path = "phases.profiling.concurrency";
  g.isl_osl_pairs = {{32, 8}, {64, 16}};
  const auto given = aiperf::cli::sweep::extract_lists({"--isl", "100", "--concurrency", "1,2"});
  const auto rs = recipe_sweep(g, given, aiperf::cli::sweep::SweepType::kGrid);
  CHECK(rs.sweep_type == aiperf::cli::sweep::SweepType::kZip);
  auto points = aiperf::cli::sweep::expand(rs.lists.parameters, rs.sweep_type);
  label_recipe_points(g, points);
  std::vector<std::string> dirs, labels;
  for (const auto& p : points) {
    dirs.push_back(p.dir_name);
    labels.push_back(p.label);
  }
  CHECK(dirs == std::vector<std::string>{"isl_32__osl_8__concurrency_1", "isl_32__osl_8__concurrency_2",
                                         "isl_64__osl_16__concurrency_1", "isl_64__osl_16__concurrency_2"});
  CHECK(labels == std::vector<std::string>{"shape_32_8_c1", "shape_32_8_c2", "shape_64_16_c1", "shape_64_16_c2"});
  CHECK(points[2].aggregate_dir == "concurrency_1__isl_64__osl_16");
  CHECK(points[2].values == std::vector<std::pair<std::string, nlohmann::json>>{{"concurrency", 1}, {"isl", 64}, {"osl", 16}});
  // The run's command line still comes from the lists.
  CHECK(aiperf::cli::sweep::point_args(rs.lists, points[2]) ==
        std::vector<std::string>{"--isl", "64", "--osl", "16", "--concurrency", "1"});
  // A single --concurrency is a list of one; none is AIPerf's 1,4,16,64,256.
  const auto one =
      recipe_sweep(g, aiperf::cli::sweep::extract_lists({"--concurrency", "8"}), aiperf::cli::sweep::SweepType::kGrid);
  CHECK(aiperf::cli::sweep::expand(one.lists.parameters, one.sweep_type).size() == 2);
  const auto dflt =
      recipe_sweep(g, aiperf::cli::sweep::extract_lists({"--streaming"}), aiperf::cli::sweep::SweepType::kGrid);
  CHECK(aiperf::cli::sweep::expand(dflt.lists.parameters, dflt.sweep_type).size() == 10);
  // One pair at one concurrency is one point: refused.
  g.isl_osl_pairs = {{32, 8}};
  CHECK(what([&] {
          recipe_sweep(g, aiperf::cli::sweep::extract_lists({"--concurrency", "8"}),
                       aiperf::cli::sweep::SweepType::kGrid);
        }) ==
        "recipe 'pareto-sweep': a Pareto sweep with a single point is meaningless. Pass at least 2 pairs OR at least 2 "
        "concurrency values.");
  CHECK(recipe_pareto_axes("pareto-sweep")["series_keys"] == Json::array({"isl", "osl"}));
}

TEST_CASE("max-goodput-under-slo's SLOs merge into --goodput as AIPerf merges its slos dict", "[unit]") {
  const std::vector<std::pair<std::string, double>> recipe = {
      {"time_to_first_token", 500}, {"inter_token_latency", 15}, {"request_latency", 2000}};
  CHECK(merged_goodput("", recipe) == "time_to_first_token:500.0 inter_token_latency:15.0 request_latency:2000.0");
  CHECK(merged_goodput(" output_token_throughput_per_user:20  request_latency:100 ", recipe) ==
        "output_token_throughput_per_user:20 request_latency:2000.0 time_to_first_token:500.0 inter_token_latency:15.0");
  CHECK(recipe_pareto_axes("max-goodput-under-slo")["y_metric"] == "goodput");
}
