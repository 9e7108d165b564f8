// `--tokenizer builtin` and the tiktoken encoding names AIPerf 0.13 accepts directly, plus its
// rule for placeholder model names (mock-model, test-model...) that default to `builtin`.
#pragma once
#include <string>
#include <string_view>

namespace aiperf::tok {

// The name users pass; it stands for kBuiltinEncoding, shipped with the product.
inline constexpr std::string_view kBuiltinTokenizerName = "builtin";
inline constexpr std::string_view kBuiltinEncoding = "o200k_base";

// True for the names AIPerf routes to tiktoken rather than the Hub: cl100k_base, o200k_base,
// o200k_harmony, p50k_base, p50k_edit, r50k_base ("gpt2" is a Hub model name, not one of them).
bool is_tiktoken_encoding_name(std::string_view name);

// "builtin" -> "o200k_base"; any other name unchanged.
std::string builtin_encoding_for(std::string_view name);

// AIPerf's placeholder-name rule: never for path-like names (containing / or \, or starting with
// . or ~); otherwise, lowercased with _ as -, an exact placeholder word (test, mock, fake, dummy,
// example, sample, placeholder) or containing a marker (mock-, -mock, fake-, -fake, test-model,
// your-model, my-model, model-name, model-id).
bool is_fake_model_name(std::string_view name);

// The warning AIPerf logs for each placeholder model name it maps to `builtin`.
std::string placeholder_model_warning(std::string_view model);

}  // namespace aiperf::tok
