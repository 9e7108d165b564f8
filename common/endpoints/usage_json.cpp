#include "endpoints/usage_json.h"

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

std::optional<int64_t> int_field(const nlohmann::json& j, const char* key, const char* alt) {
  for (const char* k : {key, alt}) {
    auto it = j.find(k);
    if (it != j.end() && it->is_number()) return it->get<int64_t>();
  }
  return std::nullopt;
}

}  // namespace

metrics::Usage read_usage_block(const nlohmann::json& usage) {
  metrics::Usage u;
  u.prompt_tokens = int_field(usage, "prompt_tokens", "input_tokens");
  // Anthropic counts input_tokens without the cached part: the prompt is input_tokens plus
  // cache reads and writes when those are reported (AIPerf's "disjoint" accounting).
  if (!usage.contains("prompt_tokens") && u.prompt_tokens) {
    for (const char* cache : {"cache_read_input_tokens", "cache_creation_input_tokens"}) {
      auto it = usage.find(cache);
      if (it != usage.end() && it->is_number_integer()) *u.prompt_tokens += it->get<int64_t>();
    }
  }
  u.completion_tokens = int_field(usage, "completion_tokens", "output_tokens");
  u.total_tokens = int_field(usage, "total_tokens", "total_tokens");
  for (const char* details : {"completion_tokens_details", "output_tokens_details"}) {
    auto it = usage.find(details);
    if (it != usage.end() && it->is_object()) {
      if (auto r = int_field(*it, "reasoning_tokens", "reasoning_tokens")) u.reasoning_tokens = r;
    }
  }
  return u;
}

void read_usage_member(const nlohmann::json& holder, ParseResult& out) {
  auto it = holder.find("usage");
  if (it != holder.end() && it->is_object() && !it->empty()) out.usage = read_usage_block(*it);
}

std::optional<int64_t> int_member(const nlohmann::json& j, const char* key) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<int64_t>();
}

proto::ErrorDetails value_error(std::string message) {
  proto::ErrorDetails e;
  e.set_type("ValueError");
  e.set_message(std::move(message));
  return e;
}

}  // namespace aiperf::endpoints
