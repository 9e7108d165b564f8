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

// ttft_over_time, ttft_timeline, timeslices_ttft, timeslices_itl,
// gpu_utilization_and_throughput_over_time (in that order; the ones the data allows).
FigureSet single_run_figures(const RunData& run);

// pareto_curve_throughput_per_gpu_vs_latency, pareto_curve_throughput_per_gpu_vs_interactivity,
// ttft_vs_throughput, latency_throughput_uncertainty. Runs are grouped into series by model;
// each point is labelled with its concurrency.
FigureSet multi_run_figures(const std::vector<RunData>& runs);

// "Time to First Token (ms)": the metric's display name (AIPerf's header) and its unit.
std::string metric_label(const std::string& tag, const std::string& unit);
// True when a larger value is better (LARGER_IS_BETTER, or the derived per-GPU/per-user rates).
bool larger_is_better(const std::string& tag);

// The run's summary as the console shows it (metric rows, avg/min/max/p99/p90/p50/std).
Table summary_table(const RunData& run);
// One row per run of a comparison: run, model, concurrency and the headline metrics.
Table runs_table(const std::vector<RunData>& runs);

}  // namespace aiperf::plot
