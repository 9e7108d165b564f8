// AIPerf 0.13's trace synthesizer (dataset/synthesis/synthesizer.py), as a pure function over
// trace lines: shared prefixes are the hash_ids seen more than once, leading each trace; the
// prefix multiplier stretches them (block h -> h*m .. h*m+m-1, plus fresh blocks for the
// fraction) or keeps the first int(n*m) (at least 1); the prompt multiplier scales the tokens
// after the prefix, which get fresh block ids; the root multiplier shifts a trace's ids into one
// of that many disjoint copies (one randint per trace with blocks); timestamps become
// int(ts / speedup); output_length int(round(osl * m)), capped by max_osl, at least 1.
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/synthesis_config.h"
#include "synthesis_random.h"

namespace aiperf::dataset {

// The transformed copies of `traces` (mooncake lines, every field passed through), in order.
// `rng` is drawn only when prefix_root_multiplier > 1. Throws std::invalid_argument (AIPerf's
// message) when a trace has fewer tokens than its shared prefix blocks.
std::vector<nlohmann::json> synthesize_traces(const std::vector<nlohmann::json>& traces,
                                              const config::SynthesisConfig& synthesis, uint32_t block_size,
                                              IntRange& rng);

}  // namespace aiperf::dataset
