#include "endpoints/spec_decode.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace aiperf::endpoints {

namespace {

using nlohmann::json;

// The record's fields are validated the way pydantic's lax mode converts JSON values: a bool
// is 0 or 1, a string holding a number is that number, an integer field takes a float only when
// it has no fraction.
std::optional<double> lax_float(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  const char* begin = s.c_str();
  char* end = nullptr;
  const double d = std::strtod(begin, &end);
  if (end == begin) return std::nullopt;
  while (*end == ' ' || *end == '\t' || *end == '\n') ++end;
  return *end == '\0' ? std::optional<double>(d) : std::nullopt;
}

std::optional<int64_t> lax_int(const json& v) {
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    std::string_view s = v.get_ref<const std::string&>();
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    int64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty() ? std::optional<int64_t>(n) : std::nullopt;
  }
  if (!v.is_number_float()) return std::nullopt;
  const double d = v.get<double>();
  if (!std::isfinite(d) || d != std::trunc(d) || std::fabs(d) > 9.0e18) return std::nullopt;
  return static_cast<int64_t>(d);
}

// A count: a non-negative integer, as above.
std::optional<int64_t> count_of(const json& v) {
  const std::optional<int64_t> n = lax_int(v);
  return n && *n >= 0 ? n : std::nullopt;
}

std::optional<int64_t> count_member(const json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() ? std::nullopt : count_of(*it);
}

std::optional<double> finite_member(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  const std::optional<double> v = lax_float(*it);
  return v && std::isfinite(*v) ? v : std::nullopt;
}

// An optional per-step list (per_step_accepted / per_step_drafted): absent or null = nullopt
// in `out` and true; a list of counts = the list and true; anything else = false.
bool per_step_list(const json& j, const char* key, std::optional<std::vector<int64_t>>& out) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_array()) return false;
  std::vector<int64_t> values;
  values.reserve(it->size());
  for (const json& v : *it) {
    auto n = count_of(v);
    if (!n) return false;
    values.push_back(*n);
  }
  out = std::move(values);
  return true;
}

// The per-step lists agree with the totals: one entry per step, summing to the accepted
// (drafted) total, and no step accepting more than it drafted.
bool per_step_consistent(const std::optional<std::vector<int64_t>>& accepted,
                         const std::optional<std::vector<int64_t>>& drafted, const metrics::SpecDecode& r) {
  auto sums_to = [&](const std::vector<int64_t>& list, int64_t total) {
    int64_t sum = 0;
    for (int64_t v : list) sum += v;
    return static_cast<int64_t>(list.size()) == r.num_spec_steps && sum == total;
  };
  if (accepted && !sums_to(*accepted, r.num_accepted_draft_tokens)) return false;
  if (drafted && !sums_to(*drafted, r.num_draft_tokens)) return false;
  if (accepted && drafted) {
    for (size_t i = 0; i < accepted->size(); ++i) {
      if ((*accepted)[i] > (*drafted)[i]) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<metrics::SpecDecode> adapt_vllm_spec_decode(const json& payload) {
  if (!payload.is_object() || !payload.contains("acceptance_histogram") || !payload.contains("num_spec_steps"))
    return std::nullopt;
  metrics::SpecDecode r;
  const json& histogram = payload["acceptance_histogram"];
  if (!histogram.is_array()) return std::nullopt;
  r.acceptance_histogram.reserve(histogram.size());
  for (const json& bucket : histogram) {
    if (!bucket.is_number_integer()) return std::nullopt;  // bools and fractions included
    const int64_t n = bucket.get<int64_t>();
    if (n < 0) return std::nullopt;
    r.acceptance_histogram.push_back(n);
  }
  // One bucket per accepted count 0..k: a bucket beyond the draft budget is impossible. (AIPerf
  // adds 1 to the raw value first: a string fails there, a number is compared as it is.)
  if (auto it = payload.find("num_spec_tokens"); it != payload.end() && !it->is_null()) {
    if (!it->is_number() && !it->is_boolean()) return std::nullopt;
    const double k = it->is_boolean() ? (it->get<bool>() ? 1.0 : 0.0) : it->get<double>();
    if (static_cast<double>(histogram.size()) != k + 1) return std::nullopt;
    r.num_spec_tokens = count_of(*it);
    if (!r.num_spec_tokens) return std::nullopt;
  }
  auto mean = finite_member(payload, "mean_acceptance_length");
  auto rate = finite_member(payload, "draft_acceptance_rate");
  auto accepted = count_member(payload, "num_accepted_draft_tokens");
  auto drafted = count_member(payload, "num_draft_tokens");
  auto steps = count_member(payload, "num_spec_steps");
  if (!mean || !rate || !accepted || !drafted || !steps) return std::nullopt;
  r.mean_acceptance_length = *mean;
  r.draft_acceptance_rate = *rate;
  r.num_accepted_draft_tokens = *accepted;
  r.num_draft_tokens = *drafted;
  r.num_spec_steps = *steps;

  // The histogram is the steps seen another way: its counts sum to the steps, its j-weighted
  // counts to the accepted drafts; and no more drafts are accepted than proposed.
  int64_t step_count = 0;
  int64_t accepted_count = 0;
  for (size_t j = 0; j < r.acceptance_histogram.size(); ++j) {
    step_count += r.acceptance_histogram[j];
    accepted_count += static_cast<int64_t>(j) * r.acceptance_histogram[j];
  }
  if (step_count != r.num_spec_steps || accepted_count != r.num_accepted_draft_tokens ||
      r.num_accepted_draft_tokens > r.num_draft_tokens)
    return std::nullopt;
  std::optional<std::vector<int64_t>> per_step_accepted, per_step_drafted;
  if (!per_step_list(payload, "per_step_accepted", per_step_accepted) ||
      !per_step_list(payload, "per_step_drafted", per_step_drafted) ||
      !per_step_consistent(per_step_accepted, per_step_drafted, r))
    return std::nullopt;
  r.per_step_accepted = std::move(per_step_accepted);
  r.per_step_drafted = std::move(per_step_drafted);
  return r;
}

void read_spec_decode_stats(const json& j, ParseResult& out) {
  auto metrics = j.find("metrics");
  if (metrics == j.end() || !metrics->is_object()) return;
  auto stats = metrics->find("speculative_decoding");
  if (stats == metrics->end() || !stats->is_object() || stats->empty()) return;
  ++out.spec_decode_payloads;
  out.spec_decode = adapt_vllm_spec_decode(*stats);
}

}  // namespace aiperf::endpoints
