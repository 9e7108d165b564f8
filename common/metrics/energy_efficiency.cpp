#include "metrics/energy_efficiency.h"

#include <array>

#include "metrics/metric_flags.h"

namespace aiperf::metrics {
namespace {

// What AIPerf 0.13 declares per metric (power_efficiency_metrics.py); the tag is the vendor
// prefix + name, the display order the NVIDIA one (+100 for AMD).
struct EnergyMetric {
  std::string_view name, header, unit;
  int display_order;
  MetricFlags flags;
};

enum Which : size_t {
  kTotalPower,
  kAveragePower,
  kTotalEnergy,
  kTokensPerJoule,
  kPerOutputToken,
  kPerTotalToken,
  kPerRequest,
  kPerUser,
  kDelayProduct,
  kPerfPerWatt,
  kOutputTpsPerWatt,
  kGoodputPerWatt,
};

constexpr MetricFlags kLarger = flags::kLargerIsBetter;
constexpr MetricFlags kTokens = flags::kProducesTokensOnly;
constexpr std::array<EnergyMetric, 12> kEnergyMetrics{{
    {"total_gpu_power", "Total GPU Power", "W", 740, flags::kNone},
    {"average_gpu_power", "Average GPU Power", "W", 720, flags::kNone},
    {"total_gpu_energy", "Total GPU Energy", "J", 730, flags::kNone},
    {"output_tokens_per_joule", "Output Tokens per Joule", "tokens/J", 760, kLarger | kTokens},
    {"energy_per_output_token", "Energy per Output Token", "mJ/token", 750, kTokens},
    {"energy_per_total_token", "Energy per Total Token", "mJ/token", 745, flags::kNone},
    {"energy_per_request", "Energy per Request", "joules/request", 755, flags::kNone},
    {"energy_per_user", "Energy per User", "joules/user", 765, flags::kNone},
    {"energy_delay_product", "Energy Delay Product", "J*s", 700, flags::kNone},
    {"performance_per_watt", "Performance per Watt", "requests/sec/W", 710, kLarger},
    {"output_tps_per_watt", "Output Tokens per Second per Watt", "tokens/sec/W", 712, kLarger | kTokens},
    {"goodput_per_watt", "Goodput per Watt", "good-req/s/W", 714, kLarger},
}};

constexpr double kMsPerSecond = 1000.0;

// A truthy value (Python's `if x:`): present and not zero.
bool truthy(const std::optional<double>& v) { return v && *v != 0; }

}  // namespace

std::vector<proto::MetricResult> energy_efficiency_metrics(std::string_view platform, const GpuEnergyTotals& gpu,
                                                           double duration_s, const RunTotals& run) {
  int order_offset = 0;
  if (platform == "amd") {
    order_offset = 100;
  } else if (platform != "nvidia") {
    return {};
  }
  std::vector<proto::MetricResult> out;
  auto emit = [&](Which which, double value) {
    const EnergyMetric& m = kEnergyMetrics[which];
    proto::MetricResult& r = out.emplace_back();
    r.set_tag(std::string(platform) + "_" + std::string(m.name));
    r.set_header(std::string(m.header));
    r.set_unit(std::string(m.unit));
    r.set_flags(m.flags | flags::kNoConsole);
    r.set_display_order(m.display_order + order_offset);
    r.set_avg(value);
  };

  if (gpu.power_gpus > 0) emit(kTotalPower, gpu.power_w);
  // The energy counter when it moved; else mean power over the window.
  double energy_j = 0, avg_power_w = 0;
  if (gpu.energy_gpus > 0 && gpu.energy_j > 0) {
    energy_j = gpu.energy_j;
    avg_power_w = duration_s > 0 ? energy_j / duration_s : 0.0;
  } else if (gpu.power_gpus > 0 && gpu.power_w > 0 && duration_s > 0) {
    energy_j = gpu.power_w * duration_s;
    avg_power_w = gpu.power_w;
  }
  if (energy_j <= 0) return out;
  if (avg_power_w > 0) emit(kAveragePower, avg_power_w);
  emit(kTotalEnergy, energy_j);

  if (truthy(run.total_osl)) {
    emit(kTokensPerJoule, *run.total_osl / energy_j);
    emit(kPerOutputToken, energy_j * kMsPerSecond / *run.total_osl);
  }
  const double total_tokens = run.total_isl.value_or(0.0) + run.total_osl.value_or(0.0);
  if (total_tokens > 0) emit(kPerTotalToken, energy_j * kMsPerSecond / total_tokens);
  std::optional<double> per_request_j;
  if (truthy(run.request_count)) {
    per_request_j = energy_j / *run.request_count;
    emit(kPerRequest, *per_request_j);
  }
  if (run.concurrency && *run.concurrency > 0) emit(kPerUser, energy_j / static_cast<double>(*run.concurrency));
  if (per_request_j && truthy(run.request_latency_ms))
    emit(kDelayProduct, *per_request_j * (*run.request_latency_ms / kMsPerSecond));

  if (avg_power_w <= 0) return out;
  // A throughput of 0 still gives 0 per watt (AIPerf compares with None here).
  if (run.request_throughput) emit(kPerfPerWatt, *run.request_throughput / avg_power_w);
  if (run.output_token_throughput) emit(kOutputTpsPerWatt, *run.output_token_throughput / avg_power_w);
  if (run.goodput) emit(kGoodputPerWatt, *run.goodput / avg_power_w);
  return out;
}

RunTotals run_totals(const proto::ProfileResults& results, std::optional<int64_t> concurrency) {
  RunTotals t;
  for (const proto::MetricResult& m : results.records()) {
    if (!m.has_avg()) continue;
    const std::string& tag = m.tag();
    if (tag == "total_osl") t.total_osl = m.avg();
    else if (tag == "total_isl") t.total_isl = m.avg();
    else if (tag == "request_count") t.request_count = m.avg();
    else if (tag == "request_latency") t.request_latency_ms = m.avg();
    else if (tag == "request_throughput") t.request_throughput = m.avg();
    else if (tag == "output_token_throughput") t.output_token_throughput = m.avg();
    else if (tag == "goodput") t.goodput = m.avg();
  }
  t.concurrency = concurrency;
  return t;
}

}  // namespace aiperf::metrics
