#include "speed_bench_report_command.h"

#include <iostream>
#include <memory>

#include "speed_bench_report.h"

namespace aiperf::cli {

std::function<int()> add_speed_bench_report_command(CLI::App& app) {
  auto o = std::make_shared<speed_bench::Options>();
  CLI::App* cmd =
      app.add_subcommand("speed-bench-report", "Assemble per-category SPEED-Bench aiperf results into a matrix report");
  // No path (or --empty-paths, the reference's spelling of an empty list) reports that no run
  // directory was found, exit 1, as the reference.
  cmd->add_option("paths,--paths", o->paths, "Run directories or parent directories containing run subdirectories");
  cmd->add_option("--output", o->output, "Output CSV file path")->capture_default_str();
  cmd->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"csv", "table", "both"}))
      ->capture_default_str();
  cmd->add_option("--metric", o->metric, "Which metric to report")
      ->check(CLI::IsMember({"accept_length", "accept_rate", "throughput"}))
      ->capture_default_str();
  cmd->add_flag("--empty-paths")->description("Pass an empty list of paths");
  return [o]() { return speed_bench::run(*o, std::cout, std::cerr); };
}

}  // namespace aiperf::cli
