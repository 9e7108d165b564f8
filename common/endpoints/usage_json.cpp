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

}  // namespace aiperf::endpoints
