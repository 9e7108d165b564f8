// The vendor spellings of a response's `usage` block that AIPerf 0.13's Usage model accepts
// (OpenAI, Anthropic, DeepSeek, Gemini, AWS Bedrock, Cohere, Mistral, watsonx), as slots: a reader
// (the tree path in usage_json.cpp or the streaming scanner in openai_content.cpp) fills the
// slots of the members it meets, and resolve_usage applies the reference's precedence (the first
// synonym present wins, even when its value is not a number) to give one metrics::Usage.
// Private to the endpoints library.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "metrics/parsed_record.h"

namespace aiperf::endpoints {

// Every member resolve_usage looks at; top-level keys first, then `<details>.<inner>` ones.
enum class UsageKey : uint8_t {
  // prompt tokens, in precedence order
  kPromptTokens,
  kInputTokens,
  kPromptTokenCount,
  kInputTokensCamel,  // inputTokens (Bedrock)
  kInputTokenCount,   // input_token_count (watsonx)
  // completion tokens
  kCompletionTokens,
  kOutputTokens,
  kCandidatesTokenCount,
  kOutputTokensCamel,
  kGeneratedTokenCount,
  // total tokens
  kTotalTokens,
  kTotalTokenCount,
  kTotalTokensCamel,
  // cache reads at the top level (after the nested cached_tokens)
  kCacheReadInputTokens,
  kPromptCacheHitTokens,
  kCachedContentTokenCount,
  kCacheReadInputTokensCamel,
  kCachedTokens,  // Cohere v2
  // cache writes
  kCacheCreationInputTokens,
  kCacheWriteInputTokensCamel,
  kPromptCacheMissTokens,
  kThoughtsTokenCount,
  kToolUsePromptTokenCount,
  kPromptAudioSeconds,
  // nested: prompt_tokens_details / input_tokens_details
  kPromptDetailsCached,
  kPromptDetailsAudio,
  kInputDetailsCached,
  kInputDetailsAudio,
  // nested: completion_tokens_details / output_tokens_details
  kCompletionDetailsReasoning,
  kCompletionDetailsAudio,
  kCompletionDetailsAccepted,
  kCompletionDetailsRejected,
  kOutputDetailsReasoning,
  kOutputDetailsAudio,
  kOutputDetailsAccepted,
  kOutputDetailsRejected,
  kCount
};

// One member: present (any value, null included), and its value when it is a number.
struct UsageSlot {
  bool present = false;
  bool integer = false;              // an integer literal (AIPerf's isinstance(value, int))
  std::optional<int64_t> int_value;  // numbers, truncated toward zero
  std::optional<double> number;
};

struct UsageFields {
  std::array<UsageSlot, static_cast<size_t>(UsageKey::kCount)> slots;
  UsageSlot& operator[](UsageKey k) { return slots[static_cast<size_t>(k)]; }
  const UsageSlot& operator[](UsageKey k) const { return slots[static_cast<size_t>(k)]; }
};

// The slot of a top-level member, nullopt for a key no synonym list names.
std::optional<UsageKey> usage_top_level_key(std::string_view key);
// Which details object `key` names: 0 prompt_tokens_details, 1 input_tokens_details,
// 2 completion_tokens_details, 3 output_tokens_details; -1 for any other key.
int usage_details_index(std::string_view key);
// The slot of `inner` inside details object number `details`, nullopt when not one of ours.
std::optional<UsageKey> usage_detail_key(int details, std::string_view inner);
// Unsets every slot of details object number `details` (a repeated key replaces the object).
void clear_usage_details(UsageFields& f, int details);
// Whether `key` is an envelope AIPerf unwraps (Gemini usageMetadata, Cohere meta and tokens).
bool usage_envelope_key(std::string_view key);

metrics::Usage resolve_usage(const UsageFields& fields);

}  // namespace aiperf::endpoints
