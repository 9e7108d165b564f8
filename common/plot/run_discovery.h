// Which directories under the given paths are runs, as AIPerf's `aiperf plot` decides
// (plot/core/mode_detector.py): a run holds profile_export.jsonl and profile_export_aiperf.json,
// or a confidence aggregate (profile_export_aiperf_aggregate.json) that does not merely shadow a
// single-trial point; profile_runs/ is skipped where an aggregate/ sibling exists. One run means
// single-run plots, several mean multi-run (comparison) plots.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

namespace aiperf::plot {

struct DiscoveryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every run directory under each path (recursively, the path itself included), sorted, each
// physical directory once. Throws DiscoveryError: "Path does not exist: P", "Path is not a
// directory: P", "Path does not contain any valid run directories: P".
std::vector<std::string> find_run_directories(const std::vector<std::string>& paths);

bool is_run_directory(const std::string& dir);

}  // namespace aiperf::plot
