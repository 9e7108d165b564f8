#include "synthesis_trace.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace aiperf::dataset {
namespace {

using nlohmann::json;

std::vector<int64_t> hash_ids_of(const json& trace) {
  std::vector<int64_t> ids;
  if (auto it = trace.find("hash_ids"); it != trace.end() && it->is_array())
    for (const json& h : *it) ids.push_back(h.get<int64_t>());
  return ids;
}

int64_t input_length_of(const json& trace, int64_t fallback) {
  auto it = trace.find("input_length");
  return it != trace.end() && it->is_number() ? it->get<int64_t>() : fallback;
}

bool present(const json& trace, const char* key) {
  auto it = trace.find(key);
  return it != trace.end() && !it->is_null();
}

struct Reshaped {
  std::vector<std::vector<int64_t>> hash_ids;
  std::vector<int64_t> input_lengths;
};

// Steps 1-6 of the reference's _apply_multipliers (the rolling-hash renormalisation is off there).
Reshaped apply_multipliers(const std::vector<json>& traces, const config::SynthesisConfig& s, int64_t block,
                           IntRange& rng) {
  Reshaped out;
  std::vector<std::vector<int64_t>> all;
  all.reserve(traces.size());
  std::unordered_map<int64_t, size_t> counts;
  for (const json& t : traces) {
    all.push_back(hash_ids_of(t));
    for (int64_t h : all.back()) ++counts[h];
  }
  std::unordered_set<int64_t> shared;
  int64_t max_shared = 0;
  for (const auto& [h, n] : counts)
    if (n > 1) {
      shared.insert(h);
      max_shared = shared.size() == 1 ? h : std::max(max_shared, h);
    }
  const double prefix_mult = s.prefix_len_multiplier;
  const int64_t mult_int = prefix_mult > 1.0 ? static_cast<int64_t>(prefix_mult) : 1;
  int64_t max_hash_id = (max_shared + 1) * mult_int;

  for (size_t t = 0; t < traces.size(); ++t) {
    const int64_t input_len = input_length_of(traces[t], 0);
    const auto& ids = all[t];
    if (ids.empty()) {
      out.hash_ids.emplace_back();
      out.input_lengths.push_back(input_len);
      continue;
    }
    std::vector<int64_t> prefix;
    for (int64_t h : ids) {
      if (!shared.count(h)) break;
      prefix.push_back(h);
    }
    const int64_t prefix_len = static_cast<int64_t>(prefix.size()) * block;
    const int64_t prompt_len = input_len - prefix_len;
    if (prompt_len < 0)
      throw std::invalid_argument("input_len (" + std::to_string(input_len) + ") < prefix_len (" +
                                  std::to_string(prefix_len) +
                                  "): trace has fewer tokens than its shared prefix blocks");
    std::vector<int64_t> result;
    int64_t new_prefix_len = prefix_len;
    if (prefix_mult > 1.0) {
      for (int64_t h : prefix)
        for (int64_t j = 0; j < mult_int; ++j) result.push_back(h * mult_int + j);
      const auto target = static_cast<int64_t>(std::ceil(static_cast<double>(prefix.size()) * prefix_mult));
      const int64_t extra = target - static_cast<int64_t>(result.size());
      for (int64_t e = 1; e <= extra; ++e) result.push_back(max_hash_id + e);
      if (extra > 0) max_hash_id += extra;
      new_prefix_len = static_cast<int64_t>(result.size()) * block;
    } else if (prefix_mult < 1.0) {
      // The reference counts at least one block even when there is no prefix to keep.
      const int64_t keep = std::max<int64_t>(1, static_cast<int64_t>(static_cast<double>(prefix.size()) * prefix_mult));
      result.assign(prefix.begin(), prefix.begin() + std::min<int64_t>(keep, static_cast<int64_t>(prefix.size())));
      new_prefix_len = keep * block;
    } else {
      result = prefix;
    }
    const auto new_prompt_len = static_cast<int64_t>(static_cast<double>(prompt_len) * s.prompt_len_multiplier);
    const int64_t prompt_blocks = (new_prompt_len + block - 1) / block;
    for (int64_t e = 1; e <= prompt_blocks; ++e) result.push_back(max_hash_id + e);
    max_hash_id += prompt_blocks;
    out.hash_ids.push_back(std::move(result));
    out.input_lengths.push_back(new_prefix_len + new_prompt_len);
  }

  if (s.prefix_root_multiplier > 1) {
    const int64_t offset_base = max_hash_id + 1;
    for (auto& ids : out.hash_ids) {
      if (ids.empty()) continue;
      const int64_t tree = rng.randint(0, static_cast<int64_t>(s.prefix_root_multiplier) - 1);
      if (tree > 0)
        for (int64_t& h : ids) h += tree * offset_base;
    }
  }
  return out;
}

}  // namespace

std::vector<json> synthesize_traces(const std::vector<json>& traces, const config::SynthesisConfig& s,
                                    uint32_t block_size, IntRange& rng) {
  const auto block = static_cast<int64_t>(block_size);
  Reshaped reshaped = apply_multipliers(traces, s, block, rng);
  std::vector<json> out;
  out.reserve(traces.size());
  for (size_t t = 0; t < traces.size(); ++t) {
    const json& trace = traces[t];
    json synth = trace;
    int64_t isl = reshaped.input_lengths[t];
    if (reshaped.hash_ids[t].empty()) {
      isl = input_length_of(trace, block);
      synth.erase("hash_ids");
    } else {
      synth["hash_ids"] = reshaped.hash_ids[t];
    }
    if (s.max_isl && isl > static_cast<int64_t>(*s.max_isl)) isl = *s.max_isl;
    if (!present(trace, "text_input") && !present(trace, "messages") && !present(trace, "payload"))
      synth["input_length"] = isl;
    if (present(trace, "timestamp") && s.speedup_ratio > 0)
      synth["timestamp"] = static_cast<int64_t>(trace["timestamp"].get<double>() / s.speedup_ratio);
    if (present(synth, "output_length")) {
      // Python's round(): halves to even, which nearbyint does in the default rounding mode.
      auto osl = static_cast<int64_t>(std::nearbyint(synth["output_length"].get<double>() * s.output_len_multiplier));
      if (s.max_osl) osl = std::min<int64_t>(osl, *s.max_osl);
      synth["output_length"] = std::max<int64_t>(1, osl);
    }
    out.push_back(std::move(synth));
  }
  return out;
}

}  // namespace aiperf::dataset
