#include "endpoints/metric_context_for.h"

#include "metrics/goodput_slos.h"

namespace aiperf::endpoints {

metrics::MetricContext metric_context_for(const config::RunConfig& config, const EndpointInfo& endpoint) {
  metrics::MetricContext ctx;
  ctx.streaming = config.endpoint.streaming && endpoint.supports_streaming;
  ctx.produces_tokens = endpoint.produces_tokens;
  ctx.tokenizes_input = endpoint.tokenizes_input;
  ctx.supports_images = endpoint.supports_images;
  ctx.supports_audio = endpoint.supports_audio;
  ctx.produces_video = endpoint.produces_videos;
  ctx.use_server_token_count = config.endpoint.use_server_token_count;
  ctx.per_chunk_usage = config.endpoint.per_chunk_usage;
  ctx.usage_diff_threshold_pct = config.output.usage_pct_diff_threshold;
  // The HTTP client traces every request, like AIPerf's aiohttp transport; a polled job's record
  // spans several requests and, as in AIPerf, carries no trace.
  ctx.http_trace = !endpoint.requires_polling;
  if (config.output.goodput) {
    ctx.goodput_slos = metrics::parse_goodput(*config.output.goodput, ctx);
    ctx.goodput = true;
  }
  return ctx;
}

}  // namespace aiperf::endpoints
