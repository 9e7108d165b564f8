#include "trace_prompts.h"

#include <unordered_map>

namespace aiperf::dataset {

void synthesize_trace_prompts(CustomDataset& dataset, const PromptGenerator& prompts, uint32_t block_size,
                              std::mt19937_64& rng) {
  const std::optional<tok::TokenId> separator = prompts.tokenizer().block_separator();
  std::unordered_map<int64_t, std::vector<tok::TokenId>> blocks;  // hash id -> full block
  for (const PendingPrompt& p : dataset.pending) {
    std::string prompt;
    if (p.hash_ids.empty()) {
      prompt = prompts.generate(p.input_length, rng);
    } else {
      std::vector<tok::TokenId> tokens;
      tokens.reserve(p.input_length);
      for (size_t i = 0; i < p.hash_ids.size(); ++i) {
        auto [it, fresh] = blocks.try_emplace(p.hash_ids[i]);
        if (fresh) {
          if (separator) it->second.push_back(*separator);
          auto body = prompts.sample_tokens(block_size - static_cast<uint32_t>(it->second.size()), rng);
          it->second.insert(it->second.end(), body.begin(), body.end());
        }
        // The loader checked that only the last block may be partial.
        const size_t take = std::min<size_t>(it->second.size(), p.input_length - tokens.size());
        tokens.insert(tokens.end(), it->second.begin(), it->second.begin() + static_cast<long>(take));
      }
      // Blocks covering only a prefix (AIPerf's "prefix only" layout, which trace synthesis can
      // produce): the tail is fresh tokens.
      if (tokens.size() < p.input_length) {
        auto tail = prompts.sample_tokens(p.input_length - static_cast<uint32_t>(tokens.size()), rng);
        tokens.insert(tokens.end(), tail.begin(), tail.end());
      }
      prompt = prompts.tokenizer().decode(tokens, /*skip_special_tokens=*/false);
    }
    proto::Text* text = dataset.conversations[p.conversation].mutable_turns(p.turn)->add_texts();
    text->set_name("text");
    text->add_contents(std::move(prompt));
  }
}

}  // namespace aiperf::dataset
