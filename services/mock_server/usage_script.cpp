#include "usage_script.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

namespace aiperf::mock {

namespace {

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<UsageScript> parse_spec_decode(const std::string& text, UsageScript script, std::string& error) {
  const size_t colon = text.find(':');
  const auto k = parse_int(std::string_view(text).substr(0, colon));
  if (!k || *k < 1 || *k > 64) {
    error = "expected K[:J1,J2,...] with a draft length K from 1 to 64, got '" + text + "'";
    return std::nullopt;
  }
  script.spec_tokens = *k;
  script.spec_accepted.clear();
  if (colon != std::string::npos) {
    std::string_view rest = std::string_view(text).substr(colon + 1);
    while (true) {
      const size_t comma = rest.find(',');
      const auto j = parse_int(rest.substr(0, comma));
      if (!j || *j < 0 || *j > *k) {
        error = "each accepted count must be an integer from 0 to K, got '" + text + "'";
        return std::nullopt;
      }
      script.spec_accepted.push_back(*j);
      if (comma == std::string_view::npos) break;
      rest.remove_prefix(comma + 1);
    }
  }
  if (script.spec_accepted.empty()) script.spec_accepted.push_back(*k);
  return script;
}

std::optional<std::string> parse_usage_fields(const std::string& text, std::string& error) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    error = "expected a JSON object, got '" + text + "'";
    return std::nullopt;
  }
  const std::string dumped = j.dump();  // "{...}": keep the members
  return dumped.substr(1, dumped.size() - 2);
}

std::string usage_extra_members(const UsageScript& script, int prompt_tokens) {
  std::string out;
  if (script.cached_tokens) {
    const int64_t cached = std::min<int64_t>(*script.cached_tokens, prompt_tokens);
    out += R"(,"prompt_tokens_details":{"cached_tokens":)" + std::to_string(cached) + "}";
  }
  if (!script.fields.empty()) out += "," + script.fields;
  return out;
}

std::string spec_decode_json(const UsageScript& script, int output_tokens) {
  if (script.spec_tokens <= 0) return {};
  const int k = script.spec_tokens;
  std::vector<int64_t> histogram(static_cast<size_t>(k) + 1, 0);
  int64_t steps = 0;
  int64_t accepted = 0;
  for (int remaining = output_tokens - 1; remaining > 0; ++steps) {
    const int planned = script.spec_accepted[static_cast<size_t>(steps) % script.spec_accepted.size()];
    const int j = std::min({planned, k, remaining - 1});
    ++histogram[static_cast<size_t>(j)];
    accepted += j;
    remaining -= j + 1;
  }
  const int64_t drafted = steps * k;
  nlohmann::json stats = {
      {"mean_acceptance_length", steps > 0 ? 1.0 + static_cast<double>(accepted) / static_cast<double>(steps) : 1.0},
      {"draft_acceptance_rate", drafted > 0 ? static_cast<double>(accepted) / static_cast<double>(drafted) : 0.0},
      {"acceptance_histogram", histogram},
      {"num_accepted_draft_tokens", accepted},
      {"num_draft_tokens", drafted},
      {"num_spec_steps", steps},
      {"num_spec_tokens", k}};
  return stats.dump();
}

}  // namespace aiperf::mock
