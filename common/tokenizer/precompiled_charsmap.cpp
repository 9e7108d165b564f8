#include "tokenizer/precompiled_charsmap.h"

#include <utf8proc.h>

#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

// Darts-clone unit layout.
bool has_leaf(uint32_t u) { return ((u >> 8) & 1) != 0; }
uint32_t value(uint32_t u) { return u & ((1u << 31) - 1); }
uint32_t label(uint32_t u) { return u & ((1u << 31) | 0xFF); }
uint32_t offset(uint32_t u) { return (u >> 10) << ((u & (1u << 9)) >> 6); }

uint32_t read_le32(std::string_view b, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(b[at])) |
         static_cast<uint32_t>(static_cast<unsigned char>(b[at + 1])) << 8 |
         static_cast<uint32_t>(static_cast<unsigned char>(b[at + 2])) << 16 |
         static_cast<uint32_t>(static_cast<unsigned char>(b[at + 3])) << 24;
}

}  // namespace

PrecompiledCharsmap::PrecompiledCharsmap(std::string_view blob) {
  if (blob.size() < 4) throw TokenizerError("Precompiled precompiled_charsmap is too short");
  uint32_t trie_bytes = read_le32(blob, 0);
  if (trie_bytes > blob.size() - 4) throw TokenizerError("Precompiled precompiled_charsmap is truncated");
  units_.resize(trie_bytes / 4);
  for (size_t i = 0; i < units_.size(); ++i) units_[i] = read_le32(blob, 4 + 4 * i);
  replacements_.assign(blob.substr(4 + trie_bytes));
  if (units_.empty()) throw TokenizerError("Precompiled precompiled_charsmap has an empty trie");
}

std::optional<std::string_view> PrecompiledCharsmap::transform(std::string_view chunk) const {
  size_t node = offset(units_[0]);
  for (unsigned char c : chunk) {
    if (c == 0) break;
    node ^= c;
    if (node >= units_.size()) return std::nullopt;
    uint32_t unit = units_[node];
    if (label(unit) != c) return std::nullopt;
    node ^= offset(unit);
    if (node >= units_.size()) return std::nullopt;
    if (has_leaf(unit)) {
      size_t begin = value(units_[node]);
      if (begin > replacements_.size()) return std::nullopt;
      size_t end = replacements_.find('\0', begin);
      if (end == std::string::npos) end = replacements_.size();
      return std::string_view(replacements_).substr(begin, end - begin);
    }
  }
  return std::nullopt;
}

void PrecompiledCharsmap::normalize(std::string& s) const {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    // One extended grapheme cluster [begin, i).
    size_t begin = i;
    utf8proc_int32_t state = 0;
    char32_t prev = uni::next_code_point(s, i);
    while (i < s.size()) {
      size_t next_at = i;
      char32_t cp = uni::next_code_point(s, next_at);
      if (utf8proc_grapheme_break_stateful(static_cast<utf8proc_int32_t>(prev), static_cast<utf8proc_int32_t>(cp),
                                           &state)) {
        break;
      }
      prev = cp;
      i = next_at;
    }
    std::string_view grapheme(s.data() + begin, i - begin);
    if (grapheme.size() < 6) {
      if (auto norm = transform(grapheme)) {
        out.append(*norm);
        continue;
      }
    }
    for (size_t k = 0; k < grapheme.size();) {
      size_t len = uni::utf8_len(static_cast<unsigned char>(grapheme[k]));
      std::string_view ch = grapheme.substr(k, len);
      if (auto norm = transform(ch)) {
        out.append(*norm);
      } else {
        out.append(ch);
      }
      k += len;
    }
  }
  s.swap(out);
}

}  // namespace aiperf::tok
