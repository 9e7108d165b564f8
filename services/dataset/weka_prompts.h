// Writes the messages of weka_trace turns (WekaPendingTurn) with the run's tokenizer: each hash
// id of a trace stands for block_size corpus tokens drawn once (the same wherever it recurs in
// that trace, different in another trace), each synthesized tail for tokens drawn from its own
// position-keyed stream; a segment's tokens are decoded into one chat message of its role.
#pragma once
#include <cstdint>
#include <optional>

#include "custom_dataset.h"
#include "prompt_generator.h"

namespace aiperf::dataset {

// Sets raw_messages on every pending turn of `dataset`. With `seed`, the texts are reproducible.
void write_weka_messages(CustomDataset& dataset, const PromptGenerator& prompts, const std::optional<uint64_t>& seed);

}  // namespace aiperf::dataset
