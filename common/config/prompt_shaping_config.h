// Prompt shaping (AIPerf 0.13 "Prompt", "ISL", "Prefix Prompt", "Cache Bust" and "Image Input"
// options): which corpus synthetic prompts are cut from, a uniform ISL/OSL window around the
// means, a verbatim system prompt, a per-session cache-bust marker, and where synthetic images
// come from. Validated by the CLI (cli/options_prompt_shaping.cpp); read by the dataset service
// (prompts, system prompt, images, ISL compensation) and the worker (cache-bust markers).
#pragma once
#include <optional>
#include <string>

#include "config/config_enum.h"
#include "config/json_optional.h"

namespace aiperf::config {

// --prompt-corpus: prose (sonnet), code-like text (coding) or random vocabulary ids.
enum class PromptCorpus { kSonnet, kCoding, kRandom };
constexpr auto enum_names(PromptCorpus) {
  using E = PromptCorpus;
  return std::array{EnumName<E>{E::kSonnet, "sonnet"}, EnumName<E>{E::kCoding, "coding"},
                    EnumName<E>{E::kRandom, "random"}};
}
AIPERF_CONFIG_ENUM_JSON(PromptCorpus, "prompt_corpus")

struct PromptShapingConfig {
  PromptCorpus prompt_corpus = PromptCorpus::kSonnet;
  // --random-range-ratio resolved to (ISL ratio, OSL ratio); unset = no window.
  std::optional<double> range_ratio_isl, range_ratio_osl;
  std::string random_corpus_style = "vllm";  // --random-corpus-style: vllm | sglang
  // --system-prompt, or the text of --system-prompt-file (read once by the CLI).
  std::optional<std::string> system_prompt;
  // --cache-bust, hyphenated: none | system-prefix | system-suffix | first-turn-prefix |
  // first-turn-suffix | warmup-isolation-system | warmup-isolation-first-turn.
  std::string cache_bust = "none";
  // --image-source: noise | assets | an absolute directory path.
  std::string image_source = "noise";
  // --image-source-sampling: random-with-replacement | shuffle-cycle | sequential-cycle.
  std::string image_source_sampling = "random-with-replacement";
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PromptShapingConfig, prompt_corpus, range_ratio_isl,
                                                range_ratio_osl, random_corpus_style, system_prompt, cache_bust,
                                                image_source, image_source_sampling)

}  // namespace aiperf::config
