#include "corpus.h"

#include <array>
#include <random>
#include <string_view>

namespace aiperf::dataset {
namespace {

constexpr std::string_view kWords[] = {
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
    "there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "she", "other",
    "its", "may", "these", "about", "many", "then", "them", "two", "into", "some", "time",
    "could", "than", "first", "only", "new", "very", "any", "like", "our", "over", "such",
    "after", "most", "also", "made", "through", "where", "before", "between", "under", "never",
    "world", "house", "water", "light", "river", "mountain", "city", "garden", "morning",
    "evening", "night", "summer", "winter", "letter", "story", "voice", "friend", "stranger",
    "king", "queen", "soldier", "merchant", "teacher", "student", "doctor", "sailor", "child",
    "people", "country", "village", "market", "road", "bridge", "window", "door", "table",
    "book", "paper", "music", "silence", "fire", "stone", "wind", "rain", "sun", "moon", "star",
    "sea", "ship", "field", "forest", "tree", "flower", "bird", "horse", "bread", "wine",
    "gold", "silver", "iron", "machine", "engine", "signal", "number", "question", "answer",
    "reason", "idea", "memory", "dream", "truth", "promise", "journey", "season", "history",
    "science", "language", "picture", "family", "company", "government", "problem", "system",
    "power", "order", "change", "result", "moment", "place", "hand", "heart", "eye", "face",
    "name", "word", "line", "end", "side", "part", "way", "day", "year", "life", "work",
    "long", "little", "great", "small", "large", "old", "young", "early", "late", "quiet",
    "bright", "dark", "cold", "warm", "strong", "gentle", "careful", "sudden", "distant",
    "simple", "strange", "ancient", "golden", "narrow", "broad", "said", "saw", "came", "went",
    "found", "gave", "took", "knew", "thought", "heard", "left", "brought", "kept", "held",
    "turned", "called", "asked", "began", "seemed", "followed", "carried", "opened", "closed",
    "walked", "watched", "remembered", "wrote", "read", "spoke", "listened", "waited",
    "answered", "learned", "built", "crossed", "returned", "slowly", "again", "always"};

constexpr std::array<std::string_view, 6> kPunctuation = {".", ".", ".", ",", ";", "?"};

}  // namespace

std::string generate_corpus(size_t words) {
  std::mt19937_64 rng(0x5eed5eedULL);  // fixed: the corpus must not depend on --random-seed
  std::uniform_int_distribution<size_t> pick_word(0, std::size(kWords) - 1);
  std::uniform_int_distribution<int> sentence_len(5, 17);
  std::uniform_int_distribution<size_t> pick_punct(0, kPunctuation.size() - 1);

  std::string out;
  out.reserve(words * 7);
  size_t written = 0;
  while (written < words) {
    int n = sentence_len(rng);
    for (int i = 0; i < n && written < words; ++i, ++written) {
      std::string_view w = kWords[pick_word(rng)];
      if (!out.empty()) out.push_back(' ');
      if (i == 0) {
        out.push_back(static_cast<char>(w[0] - 'a' + 'A'));
        out.append(w.substr(1));
      } else {
        out.append(w);
      }
    }
    out.append(kPunctuation[pick_punct(rng)]);
  }
  return out;
}

}  // namespace aiperf::dataset
