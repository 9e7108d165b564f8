// Recipe post-processing of a sweep aggregate (AIPerf 0.13's search_recipe_post_process
// handlers), pure: the sweep document in, the artifact's JSON out.
//   degradation_knee_detect (concurrency-ramp, degradation_knee.json): the first swept value
//   whose metric exceeds the lowest value's by more than threshold_pct.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::search {

// (swept value, metric mean) per row of per_combination_metrics, ascending: the value from
// parameters[swept_param] or parameters[leaf], the metric from metrics["<tag>_<stat>"].mean or,
// failing that, metrics[tag].mean (AIPerf's rule: with one trial per point that is the average,
// whatever the stat). Throws std::runtime_error when no row has both.
std::vector<std::pair<double, double>> extract_points(const nlohmann::ordered_json& sweep, const std::string& swept_param,
                                                      const std::string& metric_tag, const std::string& stat);

// degradation_knee.json: baseline_<leaf>, baseline_<stat>, knee_<leaf> (null: none),
// knee_<stat>, threshold_pct, swept_metric, stat, swept_param, all_points.
nlohmann::ordered_json degradation_knee(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params);

// A sweep row passes the filter when its "<tag>_<stat>".mean (several trials) or <tag>.<stat>
// (one trial) satisfies it; a missing value fails.
bool row_passes(const nlohmann::ordered_json& row, const std::string& metric_tag, const std::string& stat,
                const std::string& op, double threshold);

// AIPerf's sweep metadata additions, in its key order: sla_constraints {active_filters,
// feasible_count, infeasible_count} after num_combinations, pareto_axes before
// aggregation_type (either skipped when null).
nlohmann::ordered_json with_sweep_metadata(const nlohmann::ordered_json& metadata,
                                           const nlohmann::ordered_json& sla_constraints,
                                           const nlohmann::ordered_json& pareto_axes);

// The recipe's Pareto axes (x_metric, x_stat, x_minimize, y_metric, y_stat, y_maximize,
// series_keys), or null for none.
nlohmann::ordered_json recipe_pareto_axes(const std::string& recipe);

// sla_breach.json (max-concurrency-under-sla --search-style grid): rows sorted by the swept
// value (rows of equal value merged), each with feasible and its breaches {metric_tag, stat, op,
// threshold, observed}; max_passing_<leaf>, first_failing_<leaf>, first_failing_breach,
// monotonicity_check (no feasible value after an infeasible one), filters.
nlohmann::ordered_json sla_breach_knee(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params);

// prefill_curve.json (prefill-ttft-curve): a least-squares line through (ISL, TTFT), refitted
// as a quadratic when r^2 < r_squared_floor (0.85) and that fits better: fit_form,
// coefficients (highest power first, as numpy.polyfit), r_squared, below_floor,
// r_squared_floor, raw_points [{isl, ttft_ms}], swept_metric, stat, swept_param.
nlohmann::ordered_json ttft_curve_fit(const nlohmann::ordered_json& sweep, const nlohmann::ordered_json& params);

// numpy.polyfit(x, y, deg) (least squares, highest power first) and the fit's r^2 (0 when y is
// constant).
std::pair<std::vector<double>, double> polyfit_r2(const std::vector<double>& x, const std::vector<double>& y, int deg);

// AIPerf's check of a handler's params['stat']: the stat when it is avg, p50, p90, p95 or p99;
// otherwise std::runtime_error "<handler>: params['stat']='p98' is not a recognized statistic;
// expected one of ('avg', 'p50', 'p90', 'p95', 'p99')."
std::string checked_stat(const nlohmann::ordered_json& value, const std::string& handler);

// Runs `handler` on the sweep document: the handlers above, itl_surface_fit
// (search_itl_surface.h) and pareto_sweep_export (search_pareto.h).
nlohmann::ordered_json post_process(const std::string& handler, const nlohmann::ordered_json& sweep,
                                    const nlohmann::ordered_json& params);

}  // namespace aiperf::cli::search
