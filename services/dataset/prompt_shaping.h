// Glue between the prompt-shaping options (config::PromptShapingConfig) and the dataset: which
// corpus prompts come from, the verbatim system prompt, and the ISL taken off synthetic prompts
// so that a --cache-bust marker does not push the wire ISL past --isl.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "dataset.pb.h"
#include "prompt_generator.h"

namespace aiperf::dataset {

// The prompt generator of --prompt-corpus: sonnet (our generated prose), coding (our coding
// corpus) or random (vocabulary ids, --random-corpus-style's pool; `tokenizer_path` locates the
// tokenizer_config.json that names the special tokens).
PromptGenerator make_prompt_generator(const config::InputConfig& in, const tok::Tokenizer& tokenizer,
                                      const std::string& tokenizer_path = "");

// HF's all_special_ids: the ids of the tokens tokenizer_config.json (beside `tokenizer_path`)
// names as bos/eos/unk/sep/pad/cls/mask or additional/extra special tokens (each must encode to
// one id). nullopt without a tokenizer_config.json (tiktoken and SentencePiece files).
std::optional<std::set<tok::TokenId>> hf_special_ids(const std::string& tokenizer_path,
                                                     const tok::Tokenizer& tokenizer);

// --system-prompt: every conversation's system message becomes the text, or the text, a blank
// line and the message it already had (AIPerf joins them rather than sending two system messages).
void apply_system_prompt(std::vector<proto::Conversation>& conversations, const config::InputConfig& in);

// What --cache-bust costs the synthetic prompts, as AIPerf compensates it: the marker's tokens
// come off the first turn's ISL when the marker lands there (first-turn targets, and system
// targets without a system prompt), or off --shared-system-prompt-length (floored at 1) when a
// system target lands on that synthetic system prompt; a verbatim --system-prompt is not shrunk.
struct CacheBustBudget {
  uint32_t first_turn_tokens = 0;
  uint32_t shared_system_tokens = 0;
};
CacheBustBudget cache_bust_budget(const config::InputConfig& in, const tok::Tokenizer& tokenizer);

}  // namespace aiperf::dataset
