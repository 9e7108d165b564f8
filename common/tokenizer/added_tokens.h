// Finds added tokens (tokenizer.json `added_tokens`) in text, leftmost-longest and
// case-sensitive, as HF's AddedVocabulary does. Immutable after build; thread-safe.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

struct AddedTokenSpec {
  std::string content;  // the text to match (already normalized for normalized:true tokens)
  TokenId id = 0;
  bool lstrip = false;       // also swallow whitespace before the match
  bool rstrip = false;       // also swallow whitespace after the match
  bool single_word = false;  // match only when not touching word characters
};

// A slice [begin, end) of the text: an added token when id >= 0, plain text otherwise.
struct Segment {
  size_t begin;
  size_t end;
  TokenId id;
};

class AddedTokenMatcher {
 public:
  explicit AddedTokenMatcher(const std::vector<AddedTokenSpec>& tokens);

  bool empty() const { return specs_.empty(); }

  // Appends to `out` the segments covering `text` in order; plain segments are non-empty.
  void split(std::string_view text, std::vector<Segment>& out) const;

 private:
  struct Node {
    std::vector<std::pair<unsigned char, int32_t>> children;
    int32_t spec = -1;  // index into specs_ when a token ends here
  };

  // Index of the longest token starting at text[pos], or -1; sets `len` to its length.
  int32_t longest_at(std::string_view text, size_t pos, size_t& len) const;

  std::vector<AddedTokenSpec> specs_;
  std::vector<Node> nodes_;                  // nodes_[0] is the root
  std::array<int32_t, 256> root_child_{};   // root fan-out, -1 when absent
};

}  // namespace aiperf::tok
