// The built-in metric catalogue: one factory per file in this folder, each returning the
// metric's descriptor. register_builtin_metrics() (builtin_metrics.cpp) lists them all.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "metrics/metric_descriptor.h"
#include "metrics/metric_units.h"

namespace aiperf::metrics::types {

// Record metrics.
MetricDescriptor time_to_first_token();
MetricDescriptor time_to_second_token();
MetricDescriptor time_to_first_output_token();
MetricDescriptor request_latency();
MetricDescriptor inter_token_latency();
MetricDescriptor output_token_throughput_per_user();
MetricDescriptor decode_duration();
MetricDescriptor e2e_output_token_throughput();
MetricDescriptor output_sequence_length();
MetricDescriptor input_sequence_length();
MetricDescriptor inter_chunk_latency();
MetricDescriptor output_token_count();
MetricDescriptor reasoning_token_count();
MetricDescriptor prefill_throughput_per_user();
MetricDescriptor error_isl();
MetricDescriptor usage_prompt_tokens();
MetricDescriptor usage_completion_tokens();
MetricDescriptor usage_total_tokens();
MetricDescriptor usage_reasoning_tokens();
// Usage fields and speculative decoding of AIPerf 0.13 (in its registration order).
MetricDescriptor usage_prompt_audio_tokens();
MetricDescriptor usage_completion_audio_tokens();
MetricDescriptor usage_accepted_prediction_tokens();
MetricDescriptor usage_rejected_prediction_tokens();
MetricDescriptor spec_decode_acceptance_length();
MetricDescriptor spec_decode_draft_acceptance_rate();
MetricDescriptor spec_decode_accepted_per_verified();
MetricDescriptor spec_decode_steps();
MetricDescriptor spec_decode_accepted_draft_tokens();
MetricDescriptor spec_decode_draft_tokens();
MetricDescriptor usage_prompt_cache_read_tokens();
MetricDescriptor usage_prompt_cache_write_tokens();
MetricDescriptor usage_prompt_cache_miss_tokens();
MetricDescriptor usage_tool_use_prompt_tokens();
MetricDescriptor usage_prompt_audio_seconds();
MetricDescriptor usage_prompt_tokens_diff_pct();
MetricDescriptor usage_completion_tokens_diff_pct();
MetricDescriptor usage_reasoning_tokens_diff_pct();
MetricDescriptor requested_osl();
MetricDescriptor osl_mismatch_diff_pct();
MetricDescriptor schedule_lag();
MetricDescriptor http_req_blocked();
MetricDescriptor http_req_dns_lookup();
MetricDescriptor http_req_connecting();
MetricDescriptor http_req_sending();
MetricDescriptor http_req_waiting();
MetricDescriptor http_req_receiving();
MetricDescriptor http_req_connection_reused();
MetricDescriptor http_req_data_sent();
MetricDescriptor http_req_chunks_sent();
MetricDescriptor http_req_data_received();
MetricDescriptor http_req_chunks_received();
MetricDescriptor http_req_connection_overhead();
MetricDescriptor http_req_duration();
MetricDescriptor http_req_total();
MetricDescriptor num_images();
MetricDescriptor image_throughput();
MetricDescriptor image_latency();
MetricDescriptor audio_duration();
MetricDescriptor rtfx();
MetricDescriptor video_inference_time();
MetricDescriptor video_peak_memory();
// llama.cpp `timings` (ours).
MetricDescriptor server_prefill_time();
MetricDescriptor server_prefill_tokens();
MetricDescriptor server_cached_tokens();
MetricDescriptor server_decode_time();
MetricDescriptor server_decode_tokens();
MetricDescriptor server_inter_token_latency();
MetricDescriptor ttft_server_gap();
MetricDescriptor request_latency_server_gap();
// Overlap metrics.
MetricDescriptor peak_in_flight_requests();
// Record-times metrics (from each record's metadata, at the records service).
MetricDescriptor credit_to_start_latency();
MetricDescriptor effective_latency();
// Sweep-line metrics (metrics/sweep_line.h).
MetricDescriptor effective_concurrency();
MetricDescriptor effective_decode_throughput();
MetricDescriptor effective_prefill_throughput();
MetricDescriptor effective_decode_concurrency();
MetricDescriptor effective_prefill_concurrency();
MetricDescriptor effective_total_throughput();
MetricDescriptor effective_decode_throughput_per_user();
MetricDescriptor effective_prefill_throughput_per_user();
MetricDescriptor tokens_in_flight();
MetricDescriptor active_decode_throughput();
MetricDescriptor active_prefill_throughput();
MetricDescriptor active_decode_throughput_per_user();
MetricDescriptor active_prefill_throughput_per_user();
MetricDescriptor active_total_throughput();
// Aggregate metrics.
MetricDescriptor request_count();
MetricDescriptor error_request_count();
MetricDescriptor min_request_timestamp();
MetricDescriptor max_response_timestamp();
MetricDescriptor usage_discrepancy_count();
MetricDescriptor osl_mismatch_count();
MetricDescriptor good_request_count();
// Derived metrics.
MetricDescriptor benchmark_duration();
MetricDescriptor request_throughput();
MetricDescriptor output_token_throughput();
MetricDescriptor input_token_throughput();
MetricDescriptor total_output_tokens();
MetricDescriptor total_reasoning_tokens();
MetricDescriptor total_osl();
MetricDescriptor total_isl();
MetricDescriptor total_token_throughput();
MetricDescriptor total_error_isl();
MetricDescriptor total_usage_prompt_tokens();
MetricDescriptor total_usage_completion_tokens();
MetricDescriptor total_usage_total_tokens();
MetricDescriptor total_spec_decode_steps();
MetricDescriptor total_accepted_draft_tokens();
MetricDescriptor total_draft_tokens();
MetricDescriptor spec_decode_token_weighted_acceptance_length();
MetricDescriptor spec_decode_overall_draft_acceptance_rate();
MetricDescriptor total_usage_reasoning_tokens();
MetricDescriptor total_usage_prompt_cache_read_tokens();
MetricDescriptor total_usage_prompt_cache_write_tokens();
MetricDescriptor total_usage_prompt_audio_tokens();
MetricDescriptor total_usage_completion_audio_tokens();
MetricDescriptor total_usage_accepted_prediction_tokens();
MetricDescriptor total_usage_rejected_prediction_tokens();
MetricDescriptor total_usage_prompt_cache_miss_tokens();
MetricDescriptor total_usage_tool_use_prompt_tokens();
MetricDescriptor total_usage_prompt_audio_seconds();
MetricDescriptor overall_usage_prompt_cache_read_pct();
MetricDescriptor goodput();
MetricDescriptor good_request_fraction();
MetricDescriptor completed_request_count();
MetricDescriptor request_error_rate();

// AIPERF_METRICS_OSL_MISMATCH_PCT_THRESHOLD / _MAX_TOKEN_THRESHOLD: OSL may miss the request
// by min(requested * 5 %, 50 tokens) before it counts as a mismatch.
inline constexpr double kOslMismatchPct = 5.0;
inline constexpr double kOslMismatchMaxTokens = 50.0;

// Scalar value of a metric already in the record (base units), nullopt if absent.
inline std::optional<double> find_value(const proto::MetricRecord& rec, std::string_view tag) {
  for (const auto& m : rec.metrics()) {
    if (m.tag() == tag && !m.is_list()) return m.value();
  }
  return std::nullopt;
}

// end - start of a traced HTTP phase; nullopt when it never ended or ends before it starts
// (AIPerf raises for both, which drops the value).
inline std::optional<double> phase_ns(int64_t start_ns, int64_t end_ns) {
  if (end_ns == 0 || end_ns < start_ns) return std::nullopt;
  return static_cast<double>(end_ns - start_ns);
}

// amount / (duration_ns / 1e9); nullopt when an input is missing or the duration is not
// positive (a single instantaneous request has no rate).
inline std::optional<double> per_second(std::optional<double> amount,
                                        std::optional<double> duration_ns) {
  if (!amount || !duration_ns || *duration_ns <= 0) return std::nullopt;
  return *amount / (*duration_ns / 1e9);
}

// When a credit was issued as AIPerf counts it: our timing service sends a scheduled credit
// ahead of its intended send time (the worker holds it until then), AIPerf's issues it when it is
// due; so the later of the two (credit_to_start_latency, effective_latency).
inline int64_t issued_when_due(const proto::RecordMetadata& m) {
  return m.intended_start_ns() > m.credit_issued_ns() ? m.intended_start_ns() : m.credit_issued_ns();
}

// Not a metric: the ResultValues key of a windowed aggregation's length in ns (timeslices).
inline constexpr std::string_view kObservationDuration = "observation_duration";

// The denominator of the throughputs (AIPerf's observation_duration): the window's length
// when the aggregation has one (a timeslice), else benchmark_duration.
inline std::optional<double> observation_duration(const ResultValues& v) {
  if (auto window = v.scalar(kObservationDuration)) return window;
  return v.scalar("benchmark_duration");
}

// abs(reported - reference) / reference * 100; nullopt when a value is missing or the
// reference is 0 (a percentage of nothing).
inline std::optional<double> percent_diff(std::optional<double> reported, std::optional<double> reference) {
  if (!reported || !reference || *reference == 0) return std::nullopt;
  const double diff = (*reported - *reference) / *reference * 100.0;
  return diff < 0 ? -diff : diff;
}

}  // namespace aiperf::metrics::types
