// TextPool: the pieces of text the mock emits, one per output token. Pieces are " " + lowercase
// ASCII letters, so they never need JSON escaping, and the pool is built so that any run of
// consecutive pieces (cycling) re-tokenizes to exactly one token per piece with the tokenizer
// it was built for: the client counts output tokens by tokenizing the concatenated text.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::mock {

class TextPool {
 public:
  explicit TextPool(std::vector<std::string> pieces);

  // Common English words. With these the token count is only as exact as the client's
  // tokenizer keeps each word one token (true for GPT-2/tiktoken-style BPE vocabularies).
  static TextPool builtin_words();

  // Pieces that are single vocabulary tokens of `tokenizer` and do not merge with their
  // neighbours. Throws std::runtime_error if the vocabulary has no such pieces.
  static TextPool from_tokenizer(const tok::Tokenizer& tokenizer);

  size_t size() const { return pieces_.size(); }

  // The piece for output token `index` of a response starting at pool position `offset`.
  std::string_view piece(size_t offset, size_t index) const {
    return pieces_[(offset + index) % pieces_.size()];
  }

 private:
  std::vector<std::string> pieces_;
};

}  // namespace aiperf::mock
