// SentencePiece's precompiled normalization map (tokenizer.json normalizer "Precompiled", as in
// T5, ALBERT and XLM-R files): a Darts double-array trie from UTF-8 strings to offsets of
// replacement strings. Applied as HF does: per grapheme cluster when the cluster is shorter
// than 6 bytes and a prefix of it is in the map, else per character.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::tok {

class PrecompiledCharsmap {
 public:
  // `blob` is the decoded precompiled_charsmap: u32 LE trie size in bytes, the trie units,
  // then the NUL-separated replacement strings. Throws TokenizerError when malformed.
  explicit PrecompiledCharsmap(std::string_view blob);

  // Rewrites s (valid UTF-8) in place.
  void normalize(std::string& s) const;

 private:
  // Replacement of the shortest prefix of `chunk` in the map (HF uses the first match of its
  // common-prefix search), or nullopt.
  std::optional<std::string_view> transform(std::string_view chunk) const;

  std::vector<uint32_t> units_;
  std::string replacements_;
};

}  // namespace aiperf::tok
