#include "text_pool.h"

#include <algorithm>
#include <stdexcept>

namespace aiperf::mock {
namespace {

// Enough variety for realistic-looking text; scanning further only slows start-up.
constexpr size_t kMaxPoolPieces = 1024;

bool is_space_lower_word(std::string_view text) {
  return text.size() >= 2 && text[0] == ' ' &&
         std::all_of(text.begin() + 1, text.end(), [](char c) { return c >= 'a' && c <= 'z'; });
}

}  // namespace

TextPool::TextPool(std::vector<std::string> pieces) : pieces_(std::move(pieces)) {
  if (pieces_.empty()) throw std::runtime_error("mock server text pool is empty");
}

TextPool TextPool::builtin_words() {
  return TextPool({" the",     " of",    " and",   " to",    " in",     " is",      " that", " for",
                   " it",      " with",  " as",    " was",   " on",     " be",      " at",   " by",
                   " this",    " had",   " not",   " are",   " but",    " from",    " or",   " have",
                   " an",      " they",  " which", " one",   " you",    " were",    " her",  " all",
                   " she",     " there", " would", " their", " we",     " him",     " been", " has",
                   " when",    " who",   " will",  " more",  " no",     " if",      " out",  " so",
                   " said",    " what",  " up",    " its",   " about",  " into",    " than", " them",
                   " can",     " only",  " other", " new",   " some",   " could",   " time", " these",
                   " two",     " may",   " then",  " do",    " first",  " any",     " my",   " now",
                   " such",    " like",  " our",   " over",  " man",    " me",      " even", " most",
                   " made",    " after", " also",  " did",   " many",   " before",  " must", " through",
                   " years",   " where", " much",  " your",  " way",    " well",    " down", " should",
                   " because", " each",  " just",  " those", " people", " how",     " too",  " little",
                   " state",   " good",  " very",  " make",  " world",  " still",   " own",  " see",
                   " men",     " work",  " long",  " get",   " here",   " between", " both", " life"});
}

TextPool TextPool::from_tokenizer(const tok::Tokenizer& tokenizer) {
  std::vector<std::string> pieces;
  const auto vocab = static_cast<tok::TokenId>(tokenizer.vocab_size());
  for (tok::TokenId id = 0; id < vocab && pieces.size() < kMaxPoolPieces; ++id) {
    const tok::TokenId ids[] = {id};
    std::string text = tokenizer.decode(ids);
    if (!is_space_lower_word(text)) continue;
    const auto round_trip = tokenizer.encode(text);
    if (round_trip.size() != 1 || round_trip[0] != id) continue;
    // A piece must not merge with itself or with the piece before it in the cycle.
    if (tokenizer.count(text + text) != 2) continue;
    if (!pieces.empty() && tokenizer.count(pieces.back() + text) != 2) continue;
    pieces.push_back(std::move(text));
  }
  if (pieces.empty()) throw std::runtime_error("tokenizer has no ' word' tokens usable as mock output text");

  // Pairwise checks cover the cycle except its wrap-around seam and longer-range merges; verify
  // one full turn plus the seam, dropping the last piece until it holds (rarely needed).
  while (pieces.size() > 1) {
    std::string cycle;
    for (const auto& p : pieces) cycle += p;
    cycle += pieces.front();
    if (tokenizer.count(cycle) == pieces.size() + 1) break;
    pieces.pop_back();
  }
  return TextPool(std::move(pieces));
}

}  // namespace aiperf::mock
