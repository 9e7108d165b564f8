// Registration order = AIPerf's order for ties in the dependency sort (and thus the metric
// order inside profile_export.jsonl lines); dependencies must precede dependents.
#include "metrics/types/builtin_metrics.h"

#include "metrics/metric_registry.h"

namespace aiperf::metrics {

void register_builtin_metrics(MetricRegistry& registry) {
  using namespace types;
  for (auto factory : {
           input_sequence_length, time_to_first_token, time_to_second_token,
           time_to_first_output_token, request_latency, output_token_count,
           reasoning_token_count, inter_chunk_latency, output_sequence_length,
           inter_token_latency, output_token_throughput_per_user, prefill_throughput_per_user,
           error_isl, request_count, error_request_count, min_request_timestamp,
           max_response_timestamp, benchmark_duration, total_output_tokens,
           total_reasoning_tokens, total_osl, total_isl, total_error_isl, request_throughput,
           output_token_throughput, total_token_throughput,
       }) {
    registry.add(factory());
  }
}

}  // namespace aiperf::metrics
