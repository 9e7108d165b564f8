#include "server_counters.h"

#include <string>
#include <string_view>

namespace aiperf::telemetry {

namespace {

// Sum of the window increase of every counter series named `base` (or base + "_total").
std::optional<double> counter_total(const std::vector<ServerSeries>& series, std::string_view base,
                                    int64_t start_ns, int64_t end_ns) {
  std::optional<double> total;
  const std::string with_suffix = std::string(base) + "_total";
  for (const ServerSeries& s : series) {
    if (s.type != prometheus::MetricType::kCounter || s.ts.empty()) continue;
    if (s.family != base && s.family != with_suffix) continue;
    (void)end_ns;  // the final scrape, after the window's end, closes it
    total = total.value_or(0) + reset_aware_increase(s, start_ns);
  }
  return total;
}

}  // namespace

std::optional<exporting::ServerCounterTotals> known_counter_totals(const std::vector<ServerSeries>& series,
                                                                   int64_t start_ns, int64_t end_ns) {
  auto total = [&](std::string_view name) { return counter_total(series, name, start_ns, end_ns); };
  exporting::ServerCounterTotals t;
  if (auto processed = total("llamacpp:prompt_tokens"); processed || total("llamacpp:tokens_predicted")) {
    t.family = "llamacpp";
    t.cached_prompt_tokens = total("llamacpp:prompt_tokens_cached");
    if (processed) t.prompt_tokens = *processed + t.cached_prompt_tokens.value_or(0);
    t.generation_tokens = total("llamacpp:tokens_predicted");
    t.prompt_seconds = total("llamacpp:prompt_seconds");
    t.generation_seconds = total("llamacpp:tokens_predicted_seconds");
    return t;
  }
  for (std::string_view family : {"vllm", "sglang"}) {
    const std::string prefix = std::string(family) + ":";
    t.prompt_tokens = total(prefix + "prompt_tokens");
    t.generation_tokens = total(prefix + "generation_tokens");
    if (!t.prompt_tokens && !t.generation_tokens) continue;
    t.family = family;
    t.requests = total(prefix + (family == "vllm" ? "request_success" : "num_requests"));
    t.cached_prompt_tokens = total(prefix + (family == "vllm" ? "prefix_cache_hits" : "cached_tokens"));
    return t;
  }
  return std::nullopt;
}

}  // namespace aiperf::telemetry
