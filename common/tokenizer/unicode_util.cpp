#include "tokenizer/unicode_util.h"

#include <utf8proc.h>

#include "tokenizer/unicode_v9.h"

namespace aiperf::tok::uni {

char32_t next_code_point(std::string_view s, size_t& i) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  size_t len = utf8_len(b0);
  char32_t cp = b0 & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  i += len;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when invalid. When invalid, `bad_len`
// receives the length of the maximal invalid subpart (>= 1), as Rust's Utf8Chunks defines it.
size_t valid_sequence_at(std::string_view s, size_t i, size_t& bad_len) {
  auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) return 1;
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    bad_len = 1;
    return 0;
  }
  for (size_t k = 1; k < len; ++k) {
    if (i + k >= s.size()) {
      bad_len = k;
      return 0;
    }
    auto b = static_cast<unsigned char>(s[i + k]);
    bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) {
      bad_len = k;
      return 0;
    }
  }
  return len;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  size_t i = 0, bad = 0;
  while (i < s.size()) {
    // Fast skip over ASCII runs, the overwhelmingly common case.
    while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
    if (i == s.size()) break;
    size_t n = valid_sequence_at(s, i, bad);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string from_utf8_lossy(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  size_t i = 0, bad = 0;
  while (i < bytes.size()) {
    size_t n = valid_sequence_at(bytes, i, bad);
    if (n == 0) {
      out += "\xEF\xBF\xBD";
      i += bad;
    } else {
      out.append(bytes.data() + i, n);
      i += n;
    }
  }
  return out;
}

bool is_whitespace(char32_t cp) {
  switch (cp) {
    case 0x09: case 0x0A: case 0x0B: case 0x0C: case 0x0D: case 0x20: case 0x85: case 0xA0:
    case 0x1680: case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

bool is_numeric(char32_t cp) {
  auto c = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return c == UTF8PROC_CATEGORY_ND || c == UTF8PROC_CATEGORY_NL || c == UTF8PROC_CATEGORY_NO;
}

bool is_alphanumeric(char32_t cp) {
  auto c = utf8proc_category(static_cast<utf8proc_int32_t>(cp));
  return (c >= UTF8PROC_CATEGORY_LU && c <= UTF8PROC_CATEGORY_LO) || is_numeric(cp);
}

bool is_punctuation(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= 0x21 && cp <= 0x2F) || (cp >= 0x3A && cp <= 0x40) || (cp >= 0x5B && cp <= 0x60) ||
           (cp >= 0x7B && cp <= 0x7E);
  }
  return is_punctuation_v9(cp);
}

namespace {

struct ByteAlphabet {
  std::array<char32_t, 256> to_char{};
  std::array<int16_t, 324> to_byte{};  // every stand-in code point is < 0x144

  ByteAlphabet() {
    to_byte.fill(-1);
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174 && b <= 255);
      to_char[b] = printable ? static_cast<char32_t>(b) : next++;
      to_byte[to_char[b]] = static_cast<int16_t>(b);
    }
  }
};

const ByteAlphabet& alphabet() {
  static const ByteAlphabet a;
  return a;
}

}  // namespace

const std::array<char32_t, 256>& byte_to_char() { return alphabet().to_char; }

int char_to_byte(char32_t cp) {
  const auto& a = alphabet();
  return cp < a.to_byte.size() ? a.to_byte[cp] : -1;
}

}  // namespace aiperf::tok::uni
