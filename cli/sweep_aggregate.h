// The sweep's aggregate files (AIPerf 0.13 names and keys):
//  - per point, profile_export_aiperf_aggregate.{json,csv}: the confidence aggregate of the
//    point's trials (one trial: single_run, intervals collapsed) plus variation_label,
//    variation_values, sweep_mode and model in its metadata;
//  - profile_export_aiperf_sweep.{json,csv}: every point's metrics side by side, the best
//    configurations and the Pareto-optimal points.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/run_aggregate.h"
#include "sweep_plan.h"

namespace aiperf::cli::sweep {

// One point and the trials it ran (success or not).
struct Cell {
  Point point;
  std::vector<exporting::TrialResult> trials;
};

// A point's metrics as the sweep file holds them, or null when no trial of it succeeded.
// One trial: its summary's metrics keyed by tag, {mean, avg, std 0, min, max, cv 0, ci_low,
// ci_high (= avg), unit, p1..p99, count, sum} (those present). More trials: the confidence
// aggregate's "<tag>_<stat>" entries projected to {mean, std, min, max, cv, ci_low, ci_high, unit}.
nlohmann::ordered_json cell_stats(const std::vector<exporting::TrialResult>& trials, double confidence_level);

// profile_export_aiperf_sweep.json. `sweep_mode` is "repeated" or "independent".
nlohmann::ordered_json sweep_aggregate(const std::vector<Cell>& cells, const std::string& sweep_mode,
                                       double confidence_level);

// profile_export_aiperf_sweep.csv: one row per point (parameters, then <metric>_mean/_std/_min/
// _max/_cv for the union of metric keys, sorted), Best Configurations, Pareto Optimal Points,
// Metadata.
std::string sweep_csv(const nlohmann::ordered_json& sweep);

// The per-point confidence aggregate (throws std::runtime_error when no trial succeeded).
nlohmann::ordered_json point_aggregate(const Cell& cell, double confidence_level, double cooldown_seconds,
                                       const std::string& sweep_mode, const std::string& model,
                                       const std::string& version);

// The metadata rows a point's aggregate CSV adds after aggregate_csv's own (Variation Label,
// Variation Values, Sweep Mode, Model).
std::string point_csv_extra(const nlohmann::ordered_json& aggregate);

// "concurrency=2, rate=5.0": parameters as the console summary prints them.
std::string params_text(const nlohmann::ordered_json& parameters);

// The console sweep table: one column per swept path (sorted), output_token_throughput avg,
// time_to_first_token p99, inter_token_latency p99, request_latency p95, trials.
std::string sweep_table(const std::vector<Cell>& cells, double confidence_level);

}  // namespace aiperf::cli::sweep
