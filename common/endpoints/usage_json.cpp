#include "endpoints/usage_json.h"

#include <nlohmann/json.hpp>

#include "endpoints/usage_fields.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

UsageSlot slot_of(const json& v) {
  UsageSlot s;
  s.present = true;
  if (v.is_number()) {
    s.integer = v.is_number_integer();
    s.int_value = v.get<int64_t>();
    s.number = v.get<double>();
  }
  return s;
}

// The members of one layer of the usage object, each slot taken only when no earlier layer had
// it (AIPerf's setdefault); `only` restricts the layer to one key (Cohere's meta.cached_tokens).
void fill_layer(const json& layer, UsageFields& f, std::array<bool, 4>& details_taken, const char* only = nullptr) {
  for (auto it = layer.begin(); it != layer.end(); ++it) {
    const std::string& key = it.key();
    if (only && key != only) continue;
    if (auto k = usage_top_level_key(key)) {
      if (!f[*k].present) f[*k] = slot_of(it.value());
      continue;
    }
    const int d = usage_details_index(key);
    if (d < 0 || details_taken[d]) continue;
    details_taken[d] = true;  // the whole object comes from the first layer holding it
    if (!it->is_object()) continue;
    for (auto inner = it->begin(); inner != it->end(); ++inner) {
      if (auto k = usage_detail_key(d, inner.key())) f[*k] = slot_of(inner.value());
    }
  }
}

const json* object_member(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

metrics::Usage read_usage_block(const json& usage) {
  UsageFields f;
  std::array<bool, 4> details_taken{};
  fill_layer(usage, f, details_taken);
  // The envelopes AIPerf's Usage unwraps, in its order: Gemini's usageMetadata, Cohere v1's
  // meta.tokens and meta.cached_tokens, Cohere v2's tokens.
  if (const json* gemini = object_member(usage, "usageMetadata")) fill_layer(*gemini, f, details_taken);
  if (const json* meta = object_member(usage, "meta")) {
    if (const json* tokens = object_member(*meta, "tokens")) fill_layer(*tokens, f, details_taken);
    fill_layer(*meta, f, details_taken, "cached_tokens");
  }
  if (const json* tokens = object_member(usage, "tokens")) fill_layer(*tokens, f, details_taken);
  return resolve_usage(f);
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
