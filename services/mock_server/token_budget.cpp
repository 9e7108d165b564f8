#include "token_budget.h"

#include <algorithm>

namespace aiperf::mock {
namespace {

constexpr size_t kCharsPerToken = 4;
constexpr size_t kWhitespaceReach = 2;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

}  // namespace

int count_prompt_tokens(std::string_view text) {
  int tokens = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = std::min(pos + kCharsPerToken, text.size());
    for (size_t k = end; k < std::min(end + kWhitespaceReach, text.size()); ++k) {
      if (is_space(text[k])) {
        end = k + 1;
        break;
      }
    }
    pos = end;
    ++tokens;
  }
  return tokens;
}

void PromptTally::add(std::string_view text) {
  tokens_ += count_prompt_tokens(text);
  for (unsigned char c : text) {
    hash_ ^= c;
    hash_ *= 1099511628211ull;  // FNV-1a prime
  }
}

OutputPlan plan_output(const OutputRequest& request, int prompt_tokens, uint64_t prompt_hash) {
  const int max_tokens = request.max_tokens.value_or(std::max(2 * prompt_tokens, 16));
  const int default_min = std::max(1, static_cast<int>(0.8 * prompt_tokens));
  // Never below 1: an empty completion would be an error for the client (no content response).
  const int min_tokens = std::clamp(request.min_tokens.value_or(default_min), 1, max_tokens);
  if (request.ignore_eos) return {max_tokens, true};
  const auto span = static_cast<uint64_t>(max_tokens - min_tokens) + 1;
  const int tokens = min_tokens + static_cast<int>(prompt_hash % span);
  return {tokens, tokens == max_tokens};
}

}  // namespace aiperf::mock
