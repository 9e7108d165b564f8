// `aiperf speed-bench-report PATHS... [--output F] [--format csv|table|both] [--metric ...]`
// (speed_bench_report.h holds the logic).
#pragma once
#include <functional>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// Registers the subcommand on `app`; the returned function runs it (call only when the
// subcommand was selected) and returns the exit code.
std::function<int()> add_speed_bench_report_command(CLI::App& app);

}  // namespace aiperf::cli
