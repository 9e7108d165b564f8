// Usage Discrepancy Count: valid records where any usage diff (prompt, completion,
// reasoning) exceeds 10 %, i.e. the server counts tokens differently from our tokenizer.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor usage_discrepancy_count() {
  MetricDescriptor d;
  d.tag = "usage_discrepancy_count";
  d.header = "Usage Discrepancy Count";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kUsageDiffOnly | flags::kNoConsole | flags::kNoIndividualRecords;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext&) -> std::optional<double> {
    bool any = false;
    for (const char* tag : {"usage_prompt_tokens_diff_pct", "usage_completion_tokens_diff_pct",
                            "usage_reasoning_tokens_diff_pct"}) {
      std::optional<double> diff = find_value(rec, tag);
      if (!diff) continue;
      any = true;
      if (*diff > kUsageDiffThresholdPct) return 1.0;
    }
    // A record without any usage says nothing either way and is not counted.
    return any ? std::optional<double>(0.0) : std::nullopt;
  };
  return d;
}

}  // namespace aiperf::metrics::types
