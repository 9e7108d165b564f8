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

// --random-corpus-style: vLLM's or SGLang's --random-range-ratio window, and the id pool of
// --prompt-corpus random (vllm leaves the special tokens out, sglang draws every id).
enum class RandomCorpusStyle { kVllm, kSglang };
constexpr auto enum_names(RandomCorpusStyle) {
  using E = RandomCorpusStyle;
  return std::array{EnumName<E>{E::kVllm, "vllm"}, EnumName<E>{E::kSglang, "sglang"}};
}
AIPERF_CONFIG_ENUM_JSON(RandomCorpusStyle, "random_corpus_style")

// --cache-bust: where the per-session marker goes (common/endpoints/cache_bust.h). Hyphenated
// on the wire as on the command line; the config walker turns the config file's underscored
// spellings into these.
enum class CacheBust {
  kNone,
  kSystemPrefix,
  kSystemSuffix,
  kFirstTurnPrefix,
  kFirstTurnSuffix,
  kWarmupIsolationSystem,
  kWarmupIsolationFirstTurn
};
constexpr auto enum_names(CacheBust) {
  using E = CacheBust;
  return std::array{EnumName<E>{E::kNone, "none"},
                    EnumName<E>{E::kSystemPrefix, "system-prefix"},
                    EnumName<E>{E::kSystemSuffix, "system-suffix"},
                    EnumName<E>{E::kFirstTurnPrefix, "first-turn-prefix"},
                    EnumName<E>{E::kFirstTurnSuffix, "first-turn-suffix"},
                    EnumName<E>{E::kWarmupIsolationSystem, "warmup-isolation-system"},
                    EnumName<E>{E::kWarmupIsolationFirstTurn, "warmup-isolation-first-turn"}};
}
AIPERF_CONFIG_ENUM_JSON(CacheBust, "cache_bust")

// --image-source-sampling: how images are picked from a finite source (assets or a directory).
enum class ImageSourceSampling { kRandomWithReplacement, kShuffleCycle, kSequentialCycle };
constexpr auto enum_names(ImageSourceSampling) {
  using E = ImageSourceSampling;
  return std::array{EnumName<E>{E::kRandomWithReplacement, "random-with-replacement"},
                    EnumName<E>{E::kShuffleCycle, "shuffle-cycle"},
                    EnumName<E>{E::kSequentialCycle, "sequential-cycle"}};
}
AIPERF_CONFIG_ENUM_JSON(ImageSourceSampling, "image_source_sampling")

struct PromptShapingConfig {
  PromptCorpus prompt_corpus = PromptCorpus::kSonnet;
  // --random-range-ratio resolved to (ISL ratio, OSL ratio); unset = no window.
  std::optional<double> range_ratio_isl, range_ratio_osl;
  RandomCorpusStyle random_corpus_style = RandomCorpusStyle::kVllm;
  // --system-prompt, or the text of --system-prompt-file (read once by the CLI).
  std::optional<std::string> system_prompt;
  CacheBust cache_bust = CacheBust::kNone;
  // --image-source: noise | assets | an absolute directory path.
  std::string image_source = "noise";
  ImageSourceSampling image_source_sampling = ImageSourceSampling::kRandomWithReplacement;
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(PromptShapingConfig, prompt_corpus, range_ratio_isl,
                                                range_ratio_osl, random_corpus_style, system_prompt, cache_bust,
                                                image_source, image_source_sampling)

}  // namespace aiperf::config
