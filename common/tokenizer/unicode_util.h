// UTF-8 and Unicode helpers shared by the tokenizer pipeline stages.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace aiperf::tok::uni {

// GPT-2's pre-tokenization regex: what ByteLevel(use_regex=true) applies, and tiktoken's r50k/p50k split.
inline constexpr const char* kGpt2Pattern =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// Decodes the code point starting at s[i] (s must be valid UTF-8) and advances i past it.
char32_t next_code_point(std::string_view s, size_t& i);

// Byte length of the UTF-8 sequence whose lead byte is `lead` (valid UTF-8 assumed).
inline size_t utf8_len(unsigned char lead) {
  return lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
}

void append_utf8(std::string& out, char32_t cp);

// True when s is well-formed UTF-8 (no surrogates, no overlongs, <= U+10FFFF).
bool is_valid_utf8(std::string_view s);

// Rust String::from_utf8_lossy: every maximal invalid subsequence becomes one U+FFFD.
std::string from_utf8_lossy(std::string_view bytes);

// Rust char predicates (Unicode general categories / White_Space property).
bool is_whitespace(char32_t cp);
bool is_numeric(char32_t cp);       // Nd | Nl | No
bool is_alphanumeric(char32_t cp);  // L* | Nd | Nl | No
bool is_punctuation(char32_t cp);   // ASCII punctuation or P* as of Unicode 9 (HF `is_punc`)

// GPT-2 bytes_to_unicode: byte -> code point of its printable stand-in.
const std::array<char32_t, 256>& byte_to_char();
// Inverse of byte_to_char(); returns -1 for code points outside the alphabet.
int char_to_byte(char32_t cp);

}  // namespace aiperf::tok::uni
