// The runs' GPU telemetry as `genai-perf process-export-files` (GenAI-Perf 0.0.16) aggregates
// and reports it: each run's telemetry_stats (already scaled, one "avg" per GPU) become one
// value per metric and GPU: the mean of the runs' values for gpu_power_usage, gpu_utilization
// and energy_consumption, their sum for "gpu_memory_usage" (a name no run has: GenAI-Perf's
// memory metric is gpu_memory_used, which takes the maximum like every other metric).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::cli::genai_perf {

// Every metric of the first run's telemetry_stats, in its order, with that run's unit and the
// GPUs any run reports (in the order they first appear; GenAI-Perf's order is a Python set's).
// Empty when no run has telemetry.
nlohmann::ordered_json aggregate_telemetry(const std::vector<nlohmann::ordered_json>& runs);

// profile_export_genai_perf.json's "telemetry_stats": the metrics with at least one GPU value;
// null when none has.
nlohmann::ordered_json telemetry_json(const nlohmann::ordered_json& aggregated);

// The CSV's GPU sections (blank row, per-GPU statistics of the changing metrics; blank row,
// the constant ones), or "" when no metric has a GPU value.
std::string telemetry_csv(const nlohmann::ordered_json& aggregated);

// The console's Power, Memory and Utilization tables (rich's nested tables; -v only).
std::string telemetry_console(const nlohmann::ordered_json& aggregated);

}  // namespace aiperf::cli::genai_perf
