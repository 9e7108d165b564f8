#include "weka_prompts.h"

#include <algorithm>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "synthetic_dataset.h"

namespace aiperf::dataset {

void write_weka_messages(CustomDataset& dataset, const PromptGenerator& prompts, const std::optional<uint64_t>& seed) {
  // Blocks of the current scope only: hash ids are local to one trace, whose turns are contiguous.
  std::string scope;
  std::unordered_map<int64_t, std::vector<tok::TokenId>> blocks;
  // Tails by their seed: a tail re-sent on later turns (unseeded runs draw from OS entropy) must
  // read as it did when it was first sent.
  std::unordered_map<std::string, std::vector<tok::TokenId>> tails;
  for (const WekaPendingTurn& p : dataset.weka_pending) {
    if (p.scope != scope) {
      scope = p.scope;
      blocks.clear();
      tails.clear();
    }
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    for (const WekaSegment& seg : p.segments) {
      std::vector<tok::TokenId> tokens;
      tokens.reserve(seg.blocks.size() * p.block_size + seg.tail);
      for (const int64_t h : seg.blocks) {
        auto [it, fresh] = blocks.try_emplace(h);
        if (fresh) {
          std::mt19937_64 rng = derive_rng(seed, "dataset.weka.block:" + scope + ":" + std::to_string(h));
          it->second = prompts.sample_tokens(p.block_size, rng);
        }
        tokens.insert(tokens.end(), it->second.begin(), it->second.end());
      }
      if (seg.tail > 0) {
        auto [it, fresh] = tails.try_emplace(seg.tail_seed);
        if (fresh) {
          std::mt19937_64 rng = derive_rng(seed, "dataset.weka.tail:" + seg.tail_seed);
          it->second = prompts.sample_tokens(seg.tail, rng);
        }
        tokens.insert(tokens.end(), it->second.begin(),
                      it->second.begin() + std::min<size_t>(seg.tail, it->second.size()));
      }
      messages.push_back({{"role", seg.role}, {"content", prompts.tokenizer().decode(tokens, false)}});
    }
    dataset.conversations[p.conversation].mutable_turns(p.turn)->set_raw_messages(messages.dump());
  }
}

}  // namespace aiperf::dataset
