#include "synthesis_mooncake.h"

#include <random>
#include <stdexcept>

#include "dataset_error.h"
#include "mooncake_trace.h"
#include "numpy_rng.h"
#include "synthesis_trace.h"

namespace aiperf::dataset {
namespace {

using nlohmann::json;

uint64_t synthesizer_seed(const config::InputConfig& in) {
  if (in.random_seed) return derive_aiperf_seed(*in.random_seed, "dataset.synthesis.synthesizer");
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) | device();
}

// One synthesized line back into a turn. hash_ids are checked here with AIPerf's prompt-building
// rule (a last block of 1..block_size tokens, or blocks covering only a prefix whose tail is
// fresh tokens), not the stricter file rule, since the synthesizer may leave a fresh tail.
// A synthesized prompt's hash_ids layout, checked with AIPerf's prompt-building rule (a last
// block of 1..block_size tokens, or blocks covering only a prefix whose tail is fresh tokens), not
// the stricter file rule, since the synthesizer may leave a fresh tail.
void check_layout(int64_t length, size_t blocks, uint32_t block) {
  const auto m = static_cast<int64_t>(blocks);
  if (m == 0 || m * block <= length) return;
  const int64_t last = length - (m - 1) * block;
  if (last <= 0)
    throw FieldError{"input_length", "after synthesis " + std::to_string(length) + " tokens do not fit " +
                                         std::to_string(m) + " hash_ids blocks of " + std::to_string(block) +
                                         " (the final block would have " + std::to_string(last) +
                                         "; raise --synthesis-max-isl)"};
}

// One synthesized mooncake line back into a turn (hash_ids checked by check_layout).
proto::Turn reparse(const json& line, uint32_t block, double delay_ratio, std::optional<PendingPrompt>& pending) {
  json copy = line;
  copy.erase("hash_ids");
  proto::Turn turn = parse_mooncake_line(copy, block, delay_ratio, pending);
  auto ids = line.find("hash_ids");
  if (!pending || ids == line.end() || !ids->is_array() || ids->empty()) return turn;
  for (const json& h : *ids) pending->hash_ids.push_back(h.get<int64_t>());
  check_layout(pending->input_length, pending->hash_ids.size(), block);
  return turn;
}

void cap_max_osl(const config::InputConfig& in, CustomDataset& out) {
  if (const auto cap = in.synthesis.max_osl)
    for (auto& conv : out.conversations)
      for (auto& turn : *conv.mutable_turns())
        if (turn.has_max_tokens() && turn.max_tokens() > static_cast<int64_t>(*cap)) turn.set_max_tokens(*cap);
}

// The synthesizer over the file's lines in order, seeded as the reference seeds it; its refusals
// name the input file.
std::vector<json> synthesize(const config::InputConfig& in, const std::vector<json>& flat, uint32_t block_size) {
  PythonRandom rng(synthesizer_seed(in));
  try {
    return synthesize_traces(flat, in.synthesis, block_size, rng);
  } catch (const std::invalid_argument& e) {
    throw DatasetFileError(in.input_file + ": trace synthesis: " + e.what());
  }
}

}  // namespace

bool over_synthesis_max_isl(const config::InputConfig& in, const json& line) {
  if (!in.synthesis.max_isl) return false;
  auto it = line.find("input_length");
  return it != line.end() && it->is_number() && it->get<double>() > static_cast<double>(*in.synthesis.max_isl);
}

void apply_mooncake_synthesis(const config::InputConfig& in, uint32_t block_size,
                              const std::vector<std::vector<json>>& lines, CustomDataset& out) {
  if (in.synthesis.transforms()) {
    std::vector<json> flat;
    for (size_t c = 0; c < lines.size(); ++c) flat.insert(flat.end(), lines[c].begin(), lines[c].end());
    const std::vector<json> synth = synthesize(in, flat, block_size);
    out.pending.clear();
    size_t next = 0;
    for (size_t c = 0; c < lines.size(); ++c) {
      auto& turns = *out.conversations[c].mutable_turns();
      for (int t = 0; t < turns.size(); ++t, ++next) {
        std::optional<PendingPrompt> pending;
        try {
          turns[t] = reparse(synth[next], block_size, in.turn_delay_ratio, pending);
        } catch (const FieldError& e) {
          throw DatasetFileError(in.input_file + ": synthesized line " + std::to_string(next + 1) + ": " + e.field +
                                 ": " + e.message);
        }
        if (pending) {
          pending->conversation = c;
          pending->turn = t;
          out.pending.push_back(std::move(*pending));
        }
      }
    }
  }
  cap_max_osl(in, out);
}

bool over_synthesis_max_isl(const config::InputConfig& in, int64_t input_length) {
  return in.synthesis.max_isl && input_length > static_cast<int64_t>(*in.synthesis.max_isl);
}

void apply_pending_trace_synthesis(const config::InputConfig& in, uint32_t block_size, CustomDataset& out) {
  if (in.synthesis.transforms()) {
    std::vector<json> flat;
    flat.reserve(out.pending.size());
    for (const PendingPrompt& p : out.pending) {
      const proto::Turn& turn = out.conversations[p.conversation].turns(p.turn);
      json line = {{"input_length", p.input_length}};
      if (!p.hash_ids.empty()) line["hash_ids"] = p.hash_ids;
      if (turn.has_max_tokens()) line["output_length"] = turn.max_tokens();
      if (turn.has_timestamp_ms()) line["timestamp"] = turn.timestamp_ms();
      flat.push_back(std::move(line));
    }
    const std::vector<json> synth = synthesize(in, flat, block_size);
    for (size_t i = 0; i < synth.size(); ++i) {
      PendingPrompt& p = out.pending[i];
      proto::Turn& turn = *out.conversations[p.conversation].mutable_turns(p.turn);
      // AIPerf rebuilds these traces keeping the original hash_ids when synthesis dropped them.
      const json& line = synth[i];
      if (auto ids = line.find("hash_ids"); ids != line.end()) p.hash_ids = ids->get<std::vector<int64_t>>();
      p.input_length = line["input_length"].get<uint32_t>();
      try {
        check_layout(p.input_length, p.hash_ids.size(), block_size);
      } catch (const FieldError& e) {
        throw DatasetFileError(in.input_file + ": synthesized line " + std::to_string(i + 1) + ": " + e.field + ": " +
                               e.message);
      }
      if (line.contains("output_length")) turn.set_max_tokens(line["output_length"].get<int64_t>());
      if (line.contains("timestamp")) turn.set_timestamp_ms(line["timestamp"].get<double>());
    }
  }
  cap_max_osl(in, out);
}

}  // namespace aiperf::dataset
