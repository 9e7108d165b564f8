#include "endpoints/usage_fields.h"

#include <initializer_list>

namespace aiperf::endpoints {

namespace {

using K = UsageKey;

struct Name {
  std::string_view name;
  UsageKey key;
};

// Top-level members. A linear scan over string_views: usage arrives once per request (or once
// per chunk with continuous usage), and most keys differ in their first bytes.
constexpr Name kTopLevel[] = {
    {"prompt_tokens", K::kPromptTokens},
    {"input_tokens", K::kInputTokens},
    {"promptTokenCount", K::kPromptTokenCount},
    {"inputTokens", K::kInputTokensCamel},
    {"input_token_count", K::kInputTokenCount},
    {"completion_tokens", K::kCompletionTokens},
    {"output_tokens", K::kOutputTokens},
    {"candidatesTokenCount", K::kCandidatesTokenCount},
    {"outputTokens", K::kOutputTokensCamel},
    {"generated_token_count", K::kGeneratedTokenCount},
    {"total_tokens", K::kTotalTokens},
    {"totalTokenCount", K::kTotalTokenCount},
    {"totalTokens", K::kTotalTokensCamel},
    {"cache_read_input_tokens", K::kCacheReadInputTokens},
    {"prompt_cache_hit_tokens", K::kPromptCacheHitTokens},
    {"cachedContentTokenCount", K::kCachedContentTokenCount},
    {"cacheReadInputTokens", K::kCacheReadInputTokensCamel},
    {"cached_tokens", K::kCachedTokens},
    {"cache_creation_input_tokens", K::kCacheCreationInputTokens},
    {"cacheWriteInputTokens", K::kCacheWriteInputTokensCamel},
    {"prompt_cache_miss_tokens", K::kPromptCacheMissTokens},
    {"thoughtsTokenCount", K::kThoughtsTokenCount},
    {"toolUsePromptTokenCount", K::kToolUsePromptTokenCount},
    {"prompt_audio_seconds", K::kPromptAudioSeconds},
};

const UsageSlot* first_present(const UsageFields& f, std::initializer_list<UsageKey> keys) {
  for (UsageKey k : keys) {
    if (f[k].present) return &f[k];
  }
  return nullptr;
}

// AIPerf's _first_present: the first synonym present decides, a non-number value reads as absent.
std::optional<int64_t> first_int(const UsageFields& f, std::initializer_list<UsageKey> keys) {
  const UsageSlot* s = first_present(f, keys);
  return s ? s->int_value : std::nullopt;
}

}  // namespace

std::optional<UsageKey> usage_top_level_key(std::string_view key) {
  for (const Name& n : kTopLevel) {
    if (n.name == key) return n.key;
  }
  return std::nullopt;
}

int usage_details_index(std::string_view key) {
  if (key == "prompt_tokens_details") return 0;
  if (key == "input_tokens_details") return 1;
  if (key == "completion_tokens_details") return 2;
  if (key == "output_tokens_details") return 3;
  return -1;
}

std::optional<UsageKey> usage_detail_key(int details, std::string_view inner) {
  switch (details) {
    case 0:
    case 1:
      if (inner == "cached_tokens") return details == 0 ? K::kPromptDetailsCached : K::kInputDetailsCached;
      if (inner == "audio_tokens") return details == 0 ? K::kPromptDetailsAudio : K::kInputDetailsAudio;
      return std::nullopt;
    case 2:
    case 3: {
      const bool completion = details == 2;
      if (inner == "reasoning_tokens") return completion ? K::kCompletionDetailsReasoning : K::kOutputDetailsReasoning;
      if (inner == "audio_tokens") return completion ? K::kCompletionDetailsAudio : K::kOutputDetailsAudio;
      if (inner == "accepted_prediction_tokens")
        return completion ? K::kCompletionDetailsAccepted : K::kOutputDetailsAccepted;
      if (inner == "rejected_prediction_tokens")
        return completion ? K::kCompletionDetailsRejected : K::kOutputDetailsRejected;
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

void clear_usage_details(UsageFields& f, int details) {
  for (std::string_view inner : {"cached_tokens", "audio_tokens", "reasoning_tokens", "accepted_prediction_tokens",
                                 "rejected_prediction_tokens"}) {
    if (auto k = usage_detail_key(details, inner)) f[*k] = UsageSlot{};
  }
}

bool usage_envelope_key(std::string_view key) { return key == "usageMetadata" || key == "meta" || key == "tokens"; }

metrics::Usage resolve_usage(const UsageFields& f) {
  metrics::Usage u;
  // Prompt tokens: Anthropic and Bedrock count their input field without the cache, so when one
  // of their cache keys is present the integer cache counts are added back ("disjoint"
  // accounting); every other vendor's prompt field already includes the cached part.
  if (const UsageSlot* p = first_present(
          f, {K::kPromptTokens, K::kInputTokens, K::kPromptTokenCount, K::kInputTokensCamel, K::kInputTokenCount})) {
    u.prompt_tokens = p->int_value;
    const bool disjoint_key = p == &f[K::kInputTokens] || p == &f[K::kInputTokensCamel];
    const auto disjoint_cache = {K::kCacheReadInputTokens, K::kCacheCreationInputTokens, K::kCacheReadInputTokensCamel,
                                 K::kCacheWriteInputTokensCamel};
    if (disjoint_key && p->integer && first_present(f, disjoint_cache)) {
      for (UsageKey k : disjoint_cache) {
        if (f[k].integer) *u.prompt_tokens += *f[k].int_value;
      }
    }
  }
  u.completion_tokens = first_int(f, {K::kCompletionTokens, K::kOutputTokens, K::kCandidatesTokenCount,
                                      K::kOutputTokensCamel, K::kGeneratedTokenCount});
  u.total_tokens = first_int(f, {K::kTotalTokens, K::kTotalTokenCount, K::kTotalTokensCamel});
  // Nested details first (prompt_/completion_ before input_/output_); a nested value that is
  // absent or null hands over to the top-level synonyms (AIPerf tests `is not None` there).
  u.reasoning_tokens = first_int(f, {K::kCompletionDetailsReasoning, K::kOutputDetailsReasoning});
  if (!u.reasoning_tokens) u.reasoning_tokens = first_int(f, {K::kThoughtsTokenCount});
  u.prompt_cache_read_tokens = first_int(f, {K::kPromptDetailsCached, K::kInputDetailsCached});
  if (!u.prompt_cache_read_tokens) {
    u.prompt_cache_read_tokens =
        first_int(f, {K::kCacheReadInputTokens, K::kPromptCacheHitTokens, K::kCachedContentTokenCount,
                      K::kCacheReadInputTokensCamel, K::kCachedTokens});
  }
  u.prompt_cache_write_tokens = first_int(f, {K::kCacheCreationInputTokens, K::kCacheWriteInputTokensCamel});
  u.prompt_cache_miss_tokens = first_int(f, {K::kPromptCacheMissTokens});
  u.prompt_audio_tokens = first_int(f, {K::kPromptDetailsAudio, K::kInputDetailsAudio});
  u.completion_audio_tokens = first_int(f, {K::kCompletionDetailsAudio, K::kOutputDetailsAudio});
  u.accepted_prediction_tokens = first_int(f, {K::kCompletionDetailsAccepted, K::kOutputDetailsAccepted});
  u.rejected_prediction_tokens = first_int(f, {K::kCompletionDetailsRejected, K::kOutputDetailsRejected});
  u.tool_use_prompt_tokens = first_int(f, {K::kToolUsePromptTokenCount});
  if (const UsageSlot* s = first_present(f, {K::kPromptAudioSeconds})) u.prompt_audio_seconds = s->number;
  return u;
}

}  // namespace aiperf::endpoints
