#include "server_state.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace aiperf::mock {
namespace {

std::chrono::nanoseconds from_ms(double ms) { return std::chrono::nanoseconds(std::llround(ms * 1e6)); }

// The model is named after the tokenizer the output text was made for, so a client that picks
// the model from /v1/models also picks the matching tokenizer.
std::string make_models_body(const MockConfig& config) {
  return nlohmann::json{
      {"object", "list"},
      {"data",
       {{{"id", config.tokenizer}, {"object", "model"}, {"created", 0}, {"owned_by", "aiperf-mock-server"}}}}}
      .dump();
}

std::string make_root_body() {
  return nlohmann::json{{"name", "aiperf-mock-server"},
                        {"endpoints",
                         {"POST /v1/chat/completions", "POST /v1/completions", "POST /v1/responses",
                          "POST /v1/embeddings", "POST /v1/ranking", "POST /rerank", "POST /v2/rerank",
                          "POST /generate", "POST /generate_stream", "POST /v1/images/generations",
                          "POST /rag/api/prompt", "POST /v2/models/{model}/generate[_stream]", "GET /v1/models",
                          "GET /health", "GET /metrics"}}}
      .dump();
}

// JSON-safe text of `bytes` bytes for huge_event: words a tokenizer splits as usual.
std::string make_huge_text(const MockConfig& config) {
  const bool wanted = std::any_of(config.faults.begin(), config.faults.end(),
                                  [](const FaultSpec& f) { return f.kind == Fault::huge_event; });
  if (!wanted) return {};
  static constexpr std::string_view kWords = " lorem ipsum dolor sit amet";
  std::string text;
  text.reserve(config.fault_event_bytes);
  while (text.size() < config.fault_event_bytes) text += kWords;
  text.resize(config.fault_event_bytes);
  return text;
}

}  // namespace

ServerState::ServerState(MockConfig config_in, TextPool pool_in, SharedShards shared)
    : config(std::move(config_in)),
      pool(std::move(pool_in)),
      ttft(from_ms(config.effective_ttft_ms())),
      itl(from_ms(config.effective_itl_ms())),
      embedding_latency{from_ms(config.fast ? 0 : config.embedding_base_latency_ms),
                        from_ms(config.fast ? 0 : config.embedding_per_input_latency_ms)},
      ranking_latency{from_ms(config.fast ? 0 : config.ranking_base_latency_ms),
                      from_ms(config.fast ? 0 : config.ranking_per_passage_latency_ms)},
      models_body(make_models_body(config)),
      root_body(make_root_body()),
      metrics(config.workers, shared),
      errors(config.error_rate_percent, config.random_seed),
      faults(config.faults, config.random_seed),
      fault_stall(from_ms(config.fault_stall_ms)),
      fault_slow_headers(from_ms(config.fault_slow_headers_ms)),
      huge_text(make_huge_text(config)),
      recorder(config.record_requests),
      engine(config.engine.enabled() ? std::make_unique<EngineDriver>(config.engine) : nullptr) {}

}  // namespace aiperf::mock
