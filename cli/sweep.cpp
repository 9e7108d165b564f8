#include "sweep.h"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "log/log.h"
#include "sweep_aggregate.h"
#include "trial_process.h"
#include "util/output_paths.h"
#include "util/version.h"

namespace aiperf::cli {
namespace {

namespace fs = std::filesystem;

std::string four(const char* prefix, uint32_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%s_%04u", prefix, n);
  return buf;
}

}  // namespace

int run_sweep(const std::vector<sweep::Point>& points, const std::vector<config::RunConfig>& configs,
              const std::string& base_dir, const ProfileOptions::MultiRun& m) {
  install_trial_signals();
  const uint32_t trials = m.num_runs;
  const bool multi = trials > 1;
  // AIPerf honours the mode and the same-seed flag on grid sweeps only.
  const bool grid = m.sweep_type == sweep::SweepType::kGrid;
  const sweep::ParameterSweepMode mode = grid ? m.parameter_sweep_mode : sweep::ParameterSweepMode::kRepeated;
  const bool independent = multi && mode == sweep::ParameterSweepMode::kIndependent;
  const bool same_seed = grid && m.parameter_sweep_same_seed;
  const bool table = !m.no_sweep_table && ::isatty(STDOUT_FILENO) && points.size() > 1;

  // As in AIPerf, convergence stops a point's trials early in independent mode only (repeated
  // mode runs every trial of every point).
  std::optional<exporting::Convergence> convergence;
  if (m.convergence_metric && independent)
    convergence = exporting::Convergence{*m.convergence_metric, m.convergence_stat, m.convergence_mode,
                                         m.convergence_threshold};
  else if (m.convergence_metric)
    AIPERF_LOG(kWarning) << "--convergence-metric applies to --parameter-sweep-mode independent only; every point runs "
                         << trials << " trials";
  const std::string records_name =
      fs::path(util::artifact_file(configs.front(), "profile_export.jsonl")).filename();
  std::vector<sweep::Cell> cells(points.size());
  for (size_t i = 0; i < points.size(); ++i) cells[i].point = points[i];
  const std::string summary_name =
      fs::path(util::artifact_file(configs.front(), "profile_export_aiperf.json")).filename();

  auto dir_of = [&](size_t p, uint32_t trial) {
    if (!multi) return base_dir + "/" + points[p].dir_name;
    if (independent) return base_dir + "/" + points[p].dir_name + "/profile_runs/" + four("trial", trial);
    return base_dir + "/profile_runs/" + four("trial", trial) + "/" + points[p].dir_name;
  };
  bool any_ran = false;
  auto run_one = [&](size_t p, uint32_t trial) -> bool {
    if (any_ran) {
      // The trial cooldown between trials (of one point when independent, of the whole sweep
      // when repeated), the sweep cooldown between points.
      const bool new_trial = independent ? trial > 1 : multi && p == 0;
      const double pause = new_trial ? m.cooldown_seconds : m.parameter_sweep_cooldown_seconds;
      if (pause > 0 && !cooldown(pause)) return false;
    }
    any_ran = true;
    const std::string dir = dir_of(p, trial);
    std::error_code ec;
    fs::create_directories(dir + "/logs", ec);
    if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());
    config::RunConfig base = configs[p];
    if (base.input.random_seed && !same_seed) *base.input.random_seed += static_cast<uint32_t>(points[p].index);
    const config::RunConfig cfg = trial_config(base, m, trial, dir);
    write_file(dir + "/run_config.json", config::to_json(cfg).dump(2) + "\n");
    const std::string what = multi ? points[p].label + " (trial " + std::to_string(trial) + ")" : points[p].label;
    AIPERF_LOG(kInfo) << "Executing " << what;
    std::cout << "\nExecuting " << what << "...\n" << std::flush;
    const int rc = run_child(dir + "/run_config.json");
    if (rc == 128 + SIGINT || rc == 128 + SIGTERM) {
      note_stop_signal(rc - 128);
      AIPERF_LOG(kWarning) << what << " was interrupted; it is left out of the aggregate";
      return false;
    }
    cells[p].trials.push_back(exporting::read_trial(four("run", trial), dir, summary_name));
    if (!cells[p].trials.back().success)
      AIPERF_LOG(kError) << what << " failed: " << cells[p].trials.back().error;
    return true;
  };
  auto show_table = [&](size_t upto) {
    if (!table) return;
    const std::vector<sweep::Cell> done(cells.begin(), cells.begin() + static_cast<long>(upto));
    std::cout << "\n" << sweep::sweep_table(done, m.confidence_level) << std::flush;
  };

  try {
    if (!multi || independent) {
      for (size_t p = 0; p < points.size() && !stop_signal(); ++p) {
        for (uint32_t t = 1; t <= trials && !stop_signal(); ++t) {
          if (!run_one(p, t)) break;
          if (convergence && exporting::converged(cells[p].trials, *convergence, m.confidence_level, records_name)) {
            std::cout << points[p].label << ": converged after " << t << " runs (" << m.convergence_mode << " on "
                      << *m.convergence_metric << ")\n";
            break;
          }
        }
        show_table(p + 1);
      }
    } else {
      for (uint32_t t = 1; t <= trials && !stop_signal(); ++t)
        for (size_t p = 0; p < points.size() && !stop_signal(); ++p)
          if (!run_one(p, t)) break;
      show_table(points.size());
    }
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }

  const int interrupted = stop_signal() ? 128 + stop_signal() : 0;
  size_t ok = 0;
  for (const auto& c : cells)
    for (const auto& t : c.trials) ok += t.success ? 1 : 0;
  std::vector<sweep::Cell> ran;
  for (const auto& c : cells)
    if (!c.trials.empty()) ran.push_back(c);
  for (const auto& c : ran)
    for (const auto& t : c.trials)
      if (!t.success) AIPERF_LOG(kWarning) << "Sweep point " << c.point.label << " failed: " << t.error;
  // AIPerf aggregates only when at least two runs succeeded.
  if (ok < 2) {
    std::cerr << (ok == 1 ? "Only 1 variation succeeded - cannot compute sweep aggregate statistics. At least 2 "
                            "successful variations are required.\n"
                          : "All runs failed - cannot compute aggregate statistics.\n");
    return interrupted ? interrupted : 1;
  }
  try {
    for (const auto& c : ran) {
      bool any = false;
      for (const auto& t : c.trials) any = any || t.success;
      if (!any) continue;
      const size_t p = c.point.index;
      const std::string model = configs[p].endpoint.model_names.empty() ? "" : configs[p].endpoint.model_names.front();
      const auto agg = sweep::point_aggregate(c, m.confidence_level, m.cooldown_seconds, config::to_string(mode), model,
                                              util::kVersion);
      const std::string dir =
          mode == sweep::ParameterSweepMode::kIndependent
              ? base_dir + "/" + c.point.dir_name + "/aggregate"
              : base_dir + "/aggregate/" + (c.point.aggregate_dir.empty() ? c.point.dir_name : c.point.aggregate_dir);
      fs::create_directories(dir);
      write_file(dir + "/profile_export_aiperf_aggregate.json", agg.dump(2) + "\n");
      write_file(dir + "/profile_export_aiperf_aggregate.csv", exporting::aggregate_csv(agg) + sweep::point_csv_extra(agg));
    }
    const auto sweep_doc = sweep::sweep_aggregate(ran, config::to_string(mode), m.confidence_level);
    const std::string dir = multi && !independent ? base_dir + "/aggregate/sweep_aggregate" : base_dir + "/sweep_aggregate";
    fs::create_directories(dir);
    write_file(dir + "/profile_export_aiperf_sweep.json", sweep_doc.dump(2) + "\n");
    write_file(dir + "/profile_export_aiperf_sweep.csv", sweep::sweep_csv(sweep_doc));
    const auto& best = sweep_doc["best_configurations"];
    if (best.contains("best_throughput"))
      std::cout << "Best throughput: " << sweep::params_text(best["best_throughput"]["parameters"]) << " ("
                << best["best_throughput"]["metric"].get<double>() << " " << best["best_throughput"]["unit"].get<std::string>()
                << ")\n";
    if (best.contains("best_latency_p99"))
      std::cout << "Best latency (p99): " << sweep::params_text(best["best_latency_p99"]["parameters"]) << " ("
                << best["best_latency_p99"]["metric"].get<double>() << " "
                << best["best_latency_p99"]["unit"].get<std::string>() << ")\n";
    std::cout << "Sweep aggregate JSON: " << dir << "/profile_export_aiperf_sweep.json\nSweep aggregate CSV: " << dir
              << "/profile_export_aiperf_sweep.csv\n";
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return interrupted ? interrupted : 1;
  }
  return interrupted ? interrupted : 0;
}

}  // namespace aiperf::cli
