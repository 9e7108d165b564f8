#include "metrics/network_adjusted.h"

#include <algorithm>

#include "metrics/metric_flags.h"
#include "stats/stats.h"

namespace aiperf::metrics {
namespace {

constexpr double kNsPerMs = 1e6;

struct Injected {
  const char* tag;
  const char* header;
  const char* source;  // the latency it shifts
  MetricFlags flags;
  int display_order;
};

// Tags, headers, flags and display orders of AIPerf's network_adjusted_metrics.py.
constexpr Injected kAdjusted[] = {
    {"network_adjusted_request_latency", "Network-Adjusted Request Latency", "request_latency", flags::kNone, 301},
    {"network_adjusted_time_to_first_token", "Network-Adjusted Time to First Token", "time_to_first_token",
     flags::kStreamingTokensOnly, 101},
    {"network_adjusted_time_to_first_output_token", "Network-Adjusted Time to First Output Token",
     "time_to_first_output_token", flags::kStreamingTokensOnly | flags::kSupportsReasoning, 211},
};

proto::MetricResult ms_result(std::string_view tag, std::string_view header, MetricFlags f, int order,
                              const stats::Summary& s) {
  proto::MetricResult r;
  r.set_tag(std::string(tag));
  r.set_header(std::string(header));
  r.set_unit("ms");
  r.set_flags(f);
  r.set_display_order(order);
  r.set_is_record_metric(true);
  // No count: AIPerf's injected results carry none in the summary (count 0 = not reported).
  r.set_count(0);
  r.set_avg(s.avg);
  r.set_min(s.min);
  r.set_max(s.max);
  r.set_sum(s.sum);
  r.set_std(s.std);
  void (proto::MetricResult::*setters[])(double) = {
      &proto::MetricResult::set_p1,  &proto::MetricResult::set_p5,  &proto::MetricResult::set_p10,
      &proto::MetricResult::set_p25, &proto::MetricResult::set_p50, &proto::MetricResult::set_p75,
      &proto::MetricResult::set_p90, &proto::MetricResult::set_p95, &proto::MetricResult::set_p99};
  for (std::size_t i = 0; i < s.percentiles.size(); ++i) (r.*setters[i])(s.percentiles[i]);
  return r;
}

}  // namespace

void append_network_adjusted(proto::ProfileResults& out, double rtt_ns, const ColumnLookup& column) {
  if (!(rtt_ns > 0)) return;
  // One value: every statistic is the RTT, the spread 0.
  *out.add_records() = ms_result("network_rtt", "Network RTT", flags::kNoIndividualRecords, 305,
                                 stats::summarize({rtt_ns / kNsPerMs}));
  for (const Injected& m : kAdjusted) {
    const std::vector<double>* source = column(m.source);
    if (!source || source->empty()) continue;
    std::vector<double> adjusted;
    adjusted.reserve(source->size());
    for (double v : *source) adjusted.push_back(std::max(v - rtt_ns, 0.0) / kNsPerMs);
    *out.add_records() = ms_result(m.tag, m.header, m.flags, m.display_order, stats::summarize(std::move(adjusted)));
  }
}

}  // namespace aiperf::metrics
