// Trace synthesis (AIPerf 0.13 "Synthesis" group): reshapes a hash_ids trace before replay.
// --synthesis-speedup-ratio divides timestamps, --synthesis-prefix-len-multiplier stretches or
// squeezes the shared prefix blocks, --synthesis-prefix-root-multiplier spreads traces over that
// many disjoint copies of the hash_id space, --synthesis-prompt-len-multiplier scales the unique
// prompt tokens, --synthesis-output-len-multiplier the output lengths; --synthesis-max-isl drops
// traces longer than it (and caps synthesized ones), --synthesis-max-osl caps output lengths.
#pragma once
#include <cstdint>
#include <optional>

#include "config/json_optional.h"

namespace aiperf::config {

struct SynthesisConfig {
  double speedup_ratio = 1;
  double prefix_len_multiplier = 1;
  uint32_t prefix_root_multiplier = 1;
  double prompt_len_multiplier = 1;
  double output_len_multiplier = 1;
  std::optional<uint32_t> max_isl;  // >= 1: traces with a longer input_length are skipped
  std::optional<uint32_t> max_osl;  // >= 1: output lengths capped to it

  // AIPerf runs its synthesizer only when a transform differs from its default (the two caps
  // alone filter and cap without it).
  bool transforms() const {
    return speedup_ratio != 1 || prefix_len_multiplier != 1 || prefix_root_multiplier != 1 ||
           prompt_len_multiplier != 1 || output_len_multiplier != 1;
  }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(SynthesisConfig, speedup_ratio, prefix_len_multiplier,
                                                prefix_root_multiplier, prompt_len_multiplier, output_len_multiplier,
                                                max_isl, max_osl)

}  // namespace aiperf::config
