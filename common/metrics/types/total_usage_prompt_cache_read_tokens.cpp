// Total Usage Prompt Cache Read Tokens: sum of usage_prompt_cache_read_tokens over valid records (no value when no
// record had one).
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor total_usage_prompt_cache_read_tokens() {
  MetricDescriptor d;
  d.tag = "total_usage_prompt_cache_read_tokens";
  d.header = "Total Usage Prompt Cache Read Tokens";
  d.short_header = "Total Usage Prompt Cache Read";
  d.unit = units::kTokens;
  d.display_unit = units::kTokens;
  d.flags = flags::kLargerIsBetter;  // usage_prompt_cache_read_tokens's, as AIPerf's DerivedSumMetric inherits them
  d.display_order = 2010;            // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.value_type = ValueType::kInt;
  d.required = {"usage_prompt_cache_read_tokens"};
  d.derive = [](const ResultValues& v) { return v.sum("usage_prompt_cache_read_tokens"); };
  return d;
}

}  // namespace aiperf::metrics::types
