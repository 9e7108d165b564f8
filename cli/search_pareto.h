// pareto-sweep (AIPerf 0.13's ParetoSweep recipe and its pareto_sweep_export handler), the pure
// part: --isl-osl-pairs parsed with the reference's messages, Pareto dominance over (x, y) cells,
// and the pareto_sweep.json document built from a sweep aggregate. Unit-tested in
// tests/cli/search_recipes_test.cpp.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::search {

// "128/128, 512/256" -> {(128, 128), (512, 256)}: whitespace tolerated around commas and slashes,
// empty chunks skipped; each side a positive integer (Python int(): optional sign, '_' between
// digits). Throws SearchError ("--isl-osl-pairs: '0/8' both sides must be a positive int", ...)
// for an empty value, a chunk without exactly one slash, a non-positive or non-integer side, and
// a pair given twice.
std::vector<std::pair<long long, long long>> parse_isl_osl_pairs(const std::string& raw);

// One point of the frontier: its coordinates and, after mark_pareto_optimal, whether it is on it.
struct ParetoPoint {
  double x = 0, y = 0;
  bool optimal = false;
};

// Marks each non-dominated point, in place, over the finite ones; a point with a non-finite x or y
// is never optimal and takes no part. A dominates B when A is no worse on both axes and strictly
// better on one (x lower is better when x_minimize, y higher when y_maximize). Equal points are
// both optimal. O(n^2), as the reference.
void mark_pareto_optimal(std::vector<ParetoPoint>& points, bool x_minimize = true, bool y_maximize = true);

// pareto_sweep.json: {x_metric, x_stat, y_metric, y_stat, cells: [{isl, osl, concurrency, x, y,
// pareto_optimal}]} with one cell per per_combination_metrics row that has the three parameters
// (params isl_key, osl_key, concurrency_key) and both metric blocks; x and y are each block's
// "mean", the block being "<metric>_<stat>" or, failing that, "<metric>" (AIPerf's rule: a
// single-trial sweep has only the latter, whose mean is the average whatever the stat). Throws
// std::runtime_error when no row qualifies, or for a stat outside avg/p50/p90/p95/p99.
nlohmann::ordered_json pareto_sweep_export(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params);

}  // namespace aiperf::cli::search
