#include "metrics/metric_context.h"

namespace aiperf::metrics {

bool flags_applicable(MetricFlags f, const MetricContext& ctx) {
  struct Requirement {
    MetricFlags flag;
    bool satisfied;
  };
  const Requirement requirements[] = {
      {flags::kStreamingOnly, ctx.streaming},
      {flags::kProducesTokensOnly, ctx.produces_tokens},
      {flags::kTokenizesInputOnly, ctx.tokenizes_input},
      {flags::kSupportsReasoning, ctx.supports_reasoning},
      {flags::kSupportsAudioOnly, ctx.supports_audio},
      {flags::kSupportsImageOnly, ctx.supports_images},
      {flags::kSupportsVideoOnly, ctx.supports_video},
      {flags::kProducesVideoOnly, ctx.produces_video},
      // Usage-vs-client differences are meaningless when the client uses the server's counts.
      {flags::kUsageDiffOnly, !ctx.use_server_token_count},
      {flags::kExperimental, ctx.show_experimental},
      {flags::kGoodput, ctx.goodput},
      {flags::kHttpTraceOnly, ctx.http_trace},
  };
  for (const auto& r : requirements) {
    if (has_flags(f, r.flag) && !r.satisfied) return false;
  }
  return true;
}

bool exported(MetricFlags f, const MetricContext& ctx) {
  if (has_flags(f, flags::kInternal) && !ctx.show_internal) return false;
  if (has_flags(f, flags::kExperimental) && !ctx.show_experimental) return false;
  return true;
}

}  // namespace aiperf::metrics
