// GPU energy-efficiency metrics (AIPerf 0.13's EnergyEfficiencyAnalyzer): GPU telemetry's
// energy and power over the profiling window joined with the run's token, request and latency
// totals. They are not per-record metrics: the telemetry service computes them once at the end
// of a run, one family per GPU vendor ("nvidia_*", "amd_*"), and they go into the summary JSON
// and CSV (value only) and the console's "GPU Power Efficiency (<VENDOR>)" table.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results.pb.h"

namespace aiperf::metrics {

// One vendor's GPU totals over the profiling window.
struct GpuEnergyTotals {
  double energy_j = 0;  // sum over GPUs of the energy counter's increase, in joules
  int energy_gpus = 0;  // GPUs that had an energy counter in the window
  double power_w = 0;   // sum over GPUs of the mean power reading in the window, in watts
  int power_gpus = 0;   // GPUs that had a power reading in the window
};

// The run's values the metrics divide by (display units, as in the summary), nullopt = absent.
struct RunTotals {
  std::optional<double> total_osl, total_isl, request_count;  // tokens, tokens, requests
  std::optional<double> request_latency_ms;                   // mean request latency
  std::optional<double> request_throughput;                   // requests/sec
  std::optional<double> output_token_throughput;              // tokens/sec
  std::optional<double> goodput;                              // requests/sec, only with --goodput
  std::optional<int64_t> concurrency;                         // the profiling phase's, when set
};

// The metrics of `platform` ("nvidia" or "amd"; any other gives none), in AIPerf's order:
// total_gpu_power, average_gpu_power, total_gpu_energy, output_tokens_per_joule,
// energy_per_output_token, energy_per_total_token, energy_per_request, energy_per_user,
// energy_delay_product, performance_per_watt, output_tps_per_watt, goodput_per_watt, each only
// when its inputs exist (formulas in docs/metrics.md). Energy is the counter's increase when
// there is one, else mean power x duration_s. `duration_s` is the profiling window's length.
// Each result has tag, header, unit, flags (kNoConsole: the main table leaves them out),
// display_order and avg.
std::vector<proto::MetricResult> energy_efficiency_metrics(std::string_view platform, const GpuEnergyTotals& gpu,
                                                           double duration_s, const RunTotals& run);

// The run's values energy_efficiency_metrics() reads, from a run's summary records (by tag:
// total_osl, total_isl, request_count, request_latency, request_throughput,
// output_token_throughput, goodput).
RunTotals run_totals(const proto::ProfileResults& results, std::optional<int64_t> concurrency);

}  // namespace aiperf::metrics
