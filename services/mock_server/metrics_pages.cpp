#include "metrics_pages.h"

#include <cstdio>
#include <tuple>

#include "server_state.h"

namespace aiperf::mock {
namespace {

constexpr std::string_view kLabels = R"(engine="0",model_name="mock")";

// Routes whose 200 answers are generations (the ones vLLM would count as successful requests).
constexpr Route kGenerationRoutes[] = {Route::chat_completions, Route::completions, Route::tgi_generate,
                                       Route::tgi_generate_stream};

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

template <typename F>
int64_t total(const Metrics& m, F member) {
  int64_t sum = 0;
  for (const MetricsShard* shard : m.all_shards()) sum += member(*shard).get();
  return sum;
}

void header(std::string& out, const std::string& name, const char* type, const char* help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

void scalar(std::string& out, const std::string& name, const char* type, const char* help, double v,
            std::string_view extra_labels = "") {
  header(out, name, type, help);
  out += name + "{" + std::string(extra_labels) + std::string(kLabels) + "} " + number(v) + "\n";
}

void histogram(std::string& out, const Metrics& m, const std::string& name, const char* help,
               LatencyHistogram MetricsShard::*member) {
  header(out, name, "histogram", help);
  int64_t cumulative = 0;
  for (size_t b = 0; b <= kLatencyBuckets.size(); ++b) {
    cumulative += total(m, [&](const MetricsShard& s) -> const ShardCounter& { return (s.*member).buckets[b]; });
    char le[32];
    if (b < kLatencyBuckets.size()) std::snprintf(le, sizeof le, "%g", kLatencyBuckets[b]);
    else std::snprintf(le, sizeof le, "+Inf");
    out += name + "_bucket{" + std::string(kLabels) + ",le=\"" + le + "\"} " + number(double(cumulative)) + "\n";
  }
  const int64_t sum_ns = total(m, [&](const MetricsShard& s) -> const ShardCounter& { return (s.*member).sum_ns; });
  out += name + "_sum{" + std::string(kLabels) + "} " + number(double(sum_ns) * 1e-9) + "\n";
  out += name + "_count{" + std::string(kLabels) + "} " + number(double(cumulative)) + "\n";
}

// "/dcgm<N>/metrics" -> N, 0 when the path is not a DCGM page.
int dcgm_instance(std::string_view path) {
  if (!path.starts_with("/dcgm") || !path.ends_with("/metrics")) return 0;
  const std::string_view digits = path.substr(5, path.size() - 5 - 8);
  if (digits.empty() || digits.size() > 2) return 0;
  int n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

}  // namespace

std::string render_sglang_spec_metrics(const UsageScript& script) {
  if (script.spec_tokens <= 0) return {};
  // SGLang's scheduler gauges under the script: a verify step accepts J drafts and emits J + 1
  // tokens. Constant from the start (not from the traffic), so two runs scrape the same values.
  double accepted = 0;
  for (int j : script.spec_accepted) accepted += j;
  accepted /= static_cast<double>(script.spec_accepted.size());
  std::string out;
  // Every tensor-parallel rank exposes the same values (AIPerf keeps the leader's only).
  for (const auto& [name, value, help] : {std::tuple{"sglang:spec_accept_rate", accepted / script.spec_tokens,
                                                     "The average acceptance rate of speculative decoding."},
                                          std::tuple{"sglang:spec_accept_length", 1.0 + accepted,
                                                     "The average acceptance length of speculative decoding."}}) {
    header(out, name, "gauge", help);
    for (const char* rank : {"0", "1"})
      out += std::string(name) + R"({model_name="mock",pp_rank="0",tp_rank=")" + rank + "\"} " + number(value) + "\n";
  }
  return out;
}

std::string render_vllm_metrics(const Metrics& m, const EngineDriver* engine) {
  std::string out;
  out.reserve(4096);
  int64_t success = 0;
  for (Route r : kGenerationRoutes)
    success += total(m, [&](const MetricsShard& s) -> const ShardCounter& {
      return s.requests[static_cast<size_t>(r)][0];  // kStatusCodes[0] == 200
    });
  static_assert(kStatusCodes[0] == 200);
  double running = static_cast<double>(total(m, [](const MetricsShard& s) -> const ShardCounter& { return s.running; }));
  double waiting = 0;
  // A KV cache that fills with the requests in flight (64 requests = full), or the engine's slots.
  double cache_usage = std::min(1.0, running / 64.0);
  if (engine) {
    const EngineCounts counts = engine->counts();
    running = static_cast<double>(counts.running);
    waiting = static_cast<double>(counts.waiting);
    cache_usage = running / engine->spec().slots;
  }
  scalar(out, "vllm:num_requests_running", "gauge", "Number of requests in model execution batches.", running);
  scalar(out, "vllm:num_requests_waiting", "gauge", "Number of requests waiting to be processed.", waiting);
  scalar(out, "vllm:gpu_cache_usage_perc", "gauge", "GPU KV-cache usage. 1 means 100 percent usage.", cache_usage);
  if (engine)
    scalar(out, "vllm:kv_cache_usage_perc", "gauge", "KV-cache usage. 1 means 100 percent usage.", cache_usage);
  scalar(out, "vllm:prompt_tokens_total", "counter", "Number of prefill tokens processed.",
         double(total(m, [](const MetricsShard& s) -> const ShardCounter& { return s.prompt_tokens; })));
  scalar(out, "vllm:generation_tokens_total", "counter", "Number of generation tokens processed.",
         double(total(m, [](const MetricsShard& s) -> const ShardCounter& { return s.generation_tokens; })));
  scalar(out, "vllm:request_success_total", "counter", "Count of successfully processed requests.", double(success));
  histogram(out, m, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
            &MetricsShard::time_to_first_token);
  histogram(out, m, "vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.",
            &MetricsShard::inter_token_latency);
  histogram(out, m, "vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.",
            &MetricsShard::request_latency);
  if (engine) {
    histogram(out, m, "vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.",
              &MetricsShard::engine_queue_time);
    histogram(out, m, "vllm:request_prefill_time_seconds", "Histogram of time spent in PREFILL phase for request.",
              &MetricsShard::engine_prefill_time);
  }
  return out;
}

bool is_metrics_path(std::string_view path) {
  return path == "/metrics" || path == "/vllm/metrics" || dcgm_instance(path) > 0;
}

std::optional<std::string> metrics_page(ServerState& state, std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  if (const int instance = dcgm_instance(path)) {
    const int64_t tokens =
        total(state.metrics, [](const MetricsShard& s) -> const ShardCounter& { return s.generation_tokens; });
    return state.dcgm.render(instance, tokens);
  }
  if (path == "/vllm/metrics") return render_vllm_metrics(state.metrics, state.engine.get());
  return state.metrics.render() + render_vllm_metrics(state.metrics, state.engine.get()) +
         render_sglang_spec_metrics(state.config.usage) + state.control.metrics_text();
}

}  // namespace aiperf::mock
