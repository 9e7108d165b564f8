#include "prompt_shaping.h"

#include "coding_corpus.h"
#include "corpus.h"
#include "endpoints/cache_bust.h"

namespace aiperf::dataset {

PromptGenerator make_prompt_generator(const config::InputConfig& in, const tok::Tokenizer& tokenizer) {
  const auto& ps = in.prompt_shaping;
  if (ps.prompt_corpus == "random") return PromptGenerator::random_vocab(tokenizer, ps.random_corpus_style);
  if (ps.prompt_corpus == "coding") return PromptGenerator(tokenizer, generate_coding_corpus());
  return PromptGenerator(tokenizer, generate_corpus());
}

void apply_system_prompt(std::vector<proto::Conversation>& conversations, const config::InputConfig& in) {
  const auto& text = in.prompt_shaping.system_prompt;
  if (!text) return;
  for (auto& conv : conversations) {
    if (conv.system_message().empty()) conv.set_system_message(*text);
    else conv.set_system_message(*text + "\n\n" + conv.system_message());
  }
}

CacheBustBudget cache_bust_budget(const config::InputConfig& in, const tok::Tokenizer& tokenizer) {
  const std::string& target = in.prompt_shaping.cache_bust;
  CacheBustBudget b;
  const uint32_t cost = endpoints::cache_bust_marker_tokens(target, tokenizer);
  if (cost == 0) return b;
  const bool system_target = target == "system-prefix" || target == "system-suffix";
  const bool has_system = in.shared_system_prompt_length > 0 || in.prompt_shaping.system_prompt.has_value();
  if (system_target && has_system) {
    if (in.shared_system_prompt_length > 0) b.shared_system_tokens = cost;
  } else {
    b.first_turn_tokens = cost;
  }
  return b;
}

}  // namespace aiperf::dataset
