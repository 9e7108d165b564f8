// `aiperf plot [PATHS...]` (AIPerf 0.13's subcommand): PNG plots of one run (over time) or of
// several runs (comparison, e.g. a sweep's points), drawn natively (common/plot/), into
// <first path>/plots by default. `profile --auto-plot` runs the same after the benchmark.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand; the returned function runs it (only when selected): 0 plots made
// (skipped plots are warnings, as the reference), 1 a run could not be read or a file written,
// 2 bad options or paths holding no run (nothing written).
std::function<int()> add_plot_command(CLI::App& app);

// --auto-plot: plots of `artifact_dir` (a run or a sweep's tree) into <artifact_dir>/plots.
// A failure is a warning naming the directory, unless plot_required (then it is an error and
// the result is 1). Returns 0 or 1.
int run_auto_plot(const std::string& artifact_dir, bool plot_required);

}  // namespace aiperf::cli
