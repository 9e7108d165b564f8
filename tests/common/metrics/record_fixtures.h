// Hand-built records shared by the metrics tests.
#pragma once
#include <initializer_list>

#include "metrics/parsed_record.h"

namespace aiperf::metrics::testing {

inline constexpr int64_t kMs = 1'000'000;

// A streaming record that started at perf 0 with content responses at the given milliseconds.
inline ParsedRecord streamed(std::initializer_list<int64_t> content_ms, int64_t output_tokens,
                             int64_t input_tokens) {
  ParsedRecord r;
  for (int64_t ms : content_ms) r.responses.push_back({ms * kMs, "tok", ""});
  r.end_perf_ns = r.responses.empty() ? 0 : r.responses.back().perf_ns + kMs;
  r.output_tokens = output_tokens;
  r.input_tokens = input_tokens;
  return r;
}

inline ParsedRecord failed(std::optional<int32_t> code, const std::string& type,
                           const std::string& message, int64_t input_tokens) {
  ParsedRecord r;
  r.input_tokens = input_tokens;
  proto::ErrorDetails e;
  if (code) e.set_code(*code);
  e.set_type(type);
  e.set_message(message);
  r.error = e;
  return r;
}

}  // namespace aiperf::metrics::testing
