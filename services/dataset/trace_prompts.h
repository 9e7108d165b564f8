// Prompts for mooncake `input_length` turns (spec §4.4). With hash_ids the prompt is a chain of
// blocks of `block_size` tokens, one per hash id, and equal hash ids get equal blocks across
// the whole trace, so requests sharing a prefix of hash_ids share a prompt prefix (what the
// trace models: KV-cache reuse). Each new block starts with the tokenizer's block separator
// (BOS, else EOS) when it has one. Without hash_ids: a plain synthetic prompt.
#pragma once
#include <random>
#include <vector>

#include "custom_dataset.h"
#include "prompt_generator.h"

namespace aiperf::dataset {

// Sets the text of every pending turn in `dataset`.
void synthesize_trace_prompts(CustomDataset& dataset, const PromptGenerator& prompts, uint32_t block_size,
                              std::mt19937_64& rng);

}  // namespace aiperf::dataset
