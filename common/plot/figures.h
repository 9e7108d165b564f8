// AIPerf's default plot sets as plot::Figure values (default_plot_config.yaml of AIPerf 0.13):
// the single-run plots of one run and the multi-run comparison plots of several, plus the report
// tables. Builders only read RunData; what cannot be drawn is skipped with the reason, in the
// reference's words, so the caller can log it.
#pragma once
#include <string>
#include <vector>

#include "plot/figure.h"
#include "plot/run_data.h"

namespace aiperf::plot {

struct FigureSet {
  std::vector<Figure> figures;
  std::vector<std::string> skipped;  // "Skipping plot 'id': reason"
};

// AIPerf's single_run_defaults: ttft_over_time, ttft_timeline, timeslices_ttft, timeslices_itl,
// gpu_utilization_and_throughput_over_time.
const std::vector<std::string>& default_single_run_plots();
// Every single-run preset of AIPerf's default_plot_config.yaml (the defaults plus
// itl_over_time, latency_over_time, dispersed_throughput_over_time, timeslices_throughput,
// timeslices_latency), which a plot config's single_run_defaults can name.
const std::vector<std::string>& builtin_single_run_plots();
// AIPerf's multi_run_defaults (all four multi-run presets): pareto_curve_throughput_per_gpu_vs_latency,
// pareto_curve_throughput_per_gpu_vs_interactivity, ttft_vs_throughput, latency_throughput_uncertainty.
const std::vector<std::string>& default_multi_run_plots();

// The plots `ids` names, in that order, that the data allows; the others skipped with the reason
// (an id that is no built-in preset too).
FigureSet single_run_figures(const RunData& run, const std::vector<std::string>& ids);
FigureSet single_run_figures(const RunData& run);  // the defaults

// Runs are grouped into series by model; each point is labelled with its concurrency.
FigureSet multi_run_figures(const std::vector<RunData>& runs, const std::vector<std::string>& ids);
FigureSet multi_run_figures(const std::vector<RunData>& runs);  // the defaults

// "Time to First Token (ms)": the metric's display name (AIPerf's header) and its unit.
std::string metric_label(const std::string& tag, const std::string& unit);
// True when a larger value is better (LARGER_IS_BETTER, or the derived per-GPU/per-user rates).
bool larger_is_better(const std::string& tag);

// The run's summary as the console shows it (metric rows, avg/min/max/p99/p90/p50/std).
Table summary_table(const RunData& run);
// One row per run of a comparison: run, model, concurrency and the headline metrics.
Table runs_table(const std::vector<RunData>& runs);

}  // namespace aiperf::plot
