// Registration order = AIPerf's order for ties in the dependency sort (and thus the metric
// order inside profile_export.jsonl lines); dependencies must precede dependents.
#include "metrics/types/builtin_metrics.h"

#include "metrics/metric_registry.h"

namespace aiperf::metrics {

void register_builtin_metrics(MetricRegistry& registry) {
  using namespace types;
  // One line per group of metrics, hand-laid.
  // clang-format off
  for (auto factory : {
           input_sequence_length, time_to_first_token, time_to_second_token,
           time_to_first_output_token, request_latency, output_token_count,
           reasoning_token_count, inter_chunk_latency, output_sequence_length,
           inter_token_latency, output_token_throughput_per_user, prefill_throughput_per_user,
           decode_duration, e2e_output_token_throughput,
           error_isl, usage_prompt_tokens, usage_completion_tokens, usage_total_tokens,
           usage_reasoning_tokens, usage_prompt_audio_tokens, usage_completion_audio_tokens,
           usage_accepted_prediction_tokens, usage_rejected_prediction_tokens,
           spec_decode_acceptance_length, spec_decode_draft_acceptance_rate, spec_decode_accepted_per_verified,
           spec_decode_steps, spec_decode_accepted_draft_tokens, spec_decode_draft_tokens,
           usage_prompt_cache_read_tokens, usage_prompt_cache_write_tokens, usage_prompt_cache_miss_tokens,
           usage_tool_use_prompt_tokens, usage_prompt_audio_seconds, usage_prompt_tokens_diff_pct, usage_completion_tokens_diff_pct,
           usage_reasoning_tokens_diff_pct, requested_osl, osl_mismatch_diff_pct, schedule_lag,
           http_req_blocked, http_req_dns_lookup, http_req_connecting, http_req_sending,
           http_req_waiting, http_req_receiving, http_req_connection_reused, http_req_data_sent,
           http_req_chunks_sent, http_req_data_received, http_req_chunks_received,
           http_req_connection_overhead, http_req_duration, http_req_total, num_images, image_throughput,
           image_latency, audio_duration, rtfx, video_inference_time, video_peak_memory,
           server_prefill_time, server_prefill_tokens, server_cached_tokens, server_decode_time,
           server_decode_tokens, server_inter_token_latency, ttft_server_gap, request_latency_server_gap,
           request_count, error_request_count, min_request_timestamp, max_response_timestamp,
           usage_discrepancy_count, osl_mismatch_count, good_request_count, benchmark_duration,
           total_output_tokens, total_reasoning_tokens, total_osl, total_isl, total_error_isl,
           total_usage_prompt_tokens, total_usage_completion_tokens, total_usage_total_tokens,
           total_spec_decode_steps, total_accepted_draft_tokens, total_draft_tokens,
           spec_decode_token_weighted_acceptance_length, spec_decode_overall_draft_acceptance_rate,
           total_usage_reasoning_tokens, total_usage_prompt_cache_read_tokens, total_usage_prompt_cache_write_tokens,
           total_usage_prompt_audio_tokens, total_usage_completion_audio_tokens, total_usage_accepted_prediction_tokens,
           total_usage_rejected_prediction_tokens, total_usage_prompt_cache_miss_tokens, total_usage_tool_use_prompt_tokens,
           total_usage_prompt_audio_seconds, overall_usage_prompt_cache_read_pct,
           peak_in_flight_requests, request_throughput, goodput, good_request_fraction, output_token_throughput, input_token_throughput,
           total_token_throughput,
           completed_request_count, request_error_rate,
           // AIPerf 0.13 appends these after its metric classes, in this order.
           effective_concurrency, effective_decode_throughput, effective_prefill_throughput,
           effective_decode_concurrency, effective_prefill_concurrency, effective_total_throughput,
           effective_decode_throughput_per_user, effective_prefill_throughput_per_user, tokens_in_flight,
           active_decode_throughput, active_prefill_throughput, active_decode_throughput_per_user,
           active_prefill_throughput_per_user, active_total_throughput,
           credit_to_start_latency, effective_latency,
       }) {
    // clang-format on
    registry.add(factory());
  }
}

}  // namespace aiperf::metrics
