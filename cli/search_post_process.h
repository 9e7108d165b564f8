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

// Runs `handler` on the sweep document.
nlohmann::ordered_json post_process(const std::string& handler, const nlohmann::ordered_json& sweep,
                                    const nlohmann::ordered_json& params);

}  // namespace aiperf::cli::search
