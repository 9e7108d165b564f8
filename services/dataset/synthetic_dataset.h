// Synthetic datasets (spec §4.2, §4.6): text prompts of exact token lengths with optional
// prefix-pool prefixes, a shared system prompt, per-conversation user-context prompts,
// --seq-dist (ISL, OSL) mixes, synthetic images and audio; and, for the rankings endpoints,
// one query plus N passages per conversation.
#pragma once
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "config/run_config.h"
#include "dataset.pb.h"
#include "prompt_generator.h"
#include "prompt_shaping.h"

#include "chat_template_overhead.h"

namespace aiperf::dataset {

// An RNG for one purpose ("dataset.image", ...), derived from --random-seed so that enabling
// one feature does not shift the random streams of the others; OS entropy without a seed.
std::mt19937_64 derive_rng(const std::optional<uint64_t>& seed, std::string_view purpose);

bool is_rankings_endpoint(std::string_view endpoint_type);

// What the caller measured with the run's tokenizer for the prompt-shaping options.
struct ShapingInputs {
  uint32_t server_special_tokens = 0;  // --random-range-ratio's special-token accounting
  CacheBustBudget cache_bust;          // ISL given up to the --cache-bust marker
};

// The synthetic conversations of `config` with prompts from `prompts`; `overhead` (for
// --apply-chat-template) shortens the text ISL of first and later turns. With
// --random-range-ratio each turn's (ISL, OSL) comes from the window's NumPy-exact stream; with
// --prompt-corpus random that stream's next draws are the prompts' offsets, as in AIPerf.
std::vector<proto::Conversation> synthesize_conversations(const config::RunConfig& config,
                                                          const PromptGenerator& prompts,
                                                          const ChatTemplateOverhead& overhead = {},
                                                          const ShapingInputs& shaping = {});

// Rankings: one turn per conversation with texts "query" (one prompt) and "passages"
// (positive-normal-int(--rankings-passages-mean/stddev) prompts).
std::vector<proto::Conversation> synthesize_rankings(const config::RunConfig& config,
                                                     const PromptGenerator& prompts);

}  // namespace aiperf::dataset
