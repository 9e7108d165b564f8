// Overall Usage Prompt Cache Read %: total_usage_prompt_cache_read_tokens /
// total_usage_prompt_tokens * 100, the share of the run's prompt tokens served from cache
// (weighted by tokens, unlike an average of per-request shares). No value when either total is
// missing or no prompt token was reported.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor overall_usage_prompt_cache_read_pct() {
  MetricDescriptor d;
  d.tag = "overall_usage_prompt_cache_read_pct";
  d.header = "Overall Usage Prompt Cache Read %";
  d.short_header = "Overall Cache Read %";
  d.unit = units::kPercent;
  d.display_unit = units::kPercent;
  d.flags = flags::kLargerIsBetter;
  d.display_order = 2012;  // AIPerf 0.13's
  d.console_group = ConsoleGroup::kUsage;
  d.kind = MetricKind::kDerived;
  d.required = {"total_usage_prompt_cache_read_tokens", "total_usage_prompt_tokens"};
  d.derive = [](const ResultValues& v) -> std::optional<double> {
    const std::optional<double> read = v.scalar("total_usage_prompt_cache_read_tokens");
    const std::optional<double> prompt = v.scalar("total_usage_prompt_tokens");
    if (!read || !prompt || *prompt == 0) return std::nullopt;
    return *read / *prompt * 100.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
