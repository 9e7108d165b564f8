// Usage Discrepancy Count: valid records where a usage diff (prompt, completion, then reasoning)
// exceeds the threshold (AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD, 10 % by default, carried in the
// MetricContext), i.e. the server counts tokens differently from our tokenizer.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_discrepancy_count() {
  MetricDescriptor d;
  d.tag = "usage_discrepancy_count";
  d.header = "Usage Discrepancy Count";
  d.short_header = "Discrepancies";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kUsageDiffOnly | flags::kNoConsole | flags::kNoIndividualRecords;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext& ctx) -> std::optional<double> {
    // AIPerf's order: the prompt diff decides first; a record without it, or without the
    // completion diff once the prompt diff is within the threshold, is not counted at all (it
    // says nothing either way); the reasoning diff counts only when present.
    const double threshold = ctx.usage_diff_threshold_pct;
    const std::optional<double> prompt = find_value(rec, "usage_prompt_tokens_diff_pct");
    if (!prompt) return std::nullopt;
    if (*prompt > threshold) return 1.0;
    const std::optional<double> completion = find_value(rec, "usage_completion_tokens_diff_pct");
    if (!completion) return std::nullopt;
    if (*completion > threshold) return 1.0;
    const std::optional<double> reasoning = find_value(rec, "usage_reasoning_tokens_diff_pct");
    return reasoning && *reasoning > threshold ? 1.0 : 0.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
