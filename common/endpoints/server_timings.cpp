#include "endpoints/server_timings.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

std::optional<double> number(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (!std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int64_t> count(const nlohmann::json& j, const char* key) {
  std::optional<double> v = number(j, key);
  if (!v || *v < 0 || *v > 9.0e15) return std::nullopt;  // a count is a non-negative integer
  return static_cast<int64_t>(std::llround(*v));
}

}  // namespace

void read_server_timings(const nlohmann::json& doc, ParseResult& out) {
  if (!doc.is_object()) return;
  auto it = doc.find("timings");
  if (it == doc.end() || !it->is_object()) return;
  const nlohmann::json& t = *it;
  metrics::ServerTimings s;
  s.cache_n = count(t, "cache_n");
  s.prompt_n = count(t, "prompt_n");
  s.prompt_ms = number(t, "prompt_ms");
  s.predicted_n = count(t, "predicted_n");
  s.predicted_ms = number(t, "predicted_ms");
  s.predicted_per_token_ms = number(t, "predicted_per_token_ms");
  out.server_timings = s;
}

}  // namespace aiperf::endpoints
