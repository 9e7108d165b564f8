#include "endpoints/json_scan.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <system_error>

namespace aiperf::endpoints {
namespace {

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void put_utf8(uint32_t cp, std::string& out) {
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

// The end of the plain run at p: the first quote, backslash, control or non-ASCII byte, or
// end. Eight bytes at a time (the bit tricks flag exactly the first such byte of a word; any
// flags above it may be false and are not used).
const char* plain_run_end(const char* p, const char* end) {
  static_assert(std::endian::native == std::endian::little, "the first flagged byte is the lowest");
  constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
  while (end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    const uint64_t quote = w ^ (kOnes * '"'), backslash = w ^ (kOnes * '\\');
    const uint64_t special = ((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                             ((w - kOnes * 0x20) & ~w) | w;  // zero bytes of quote/backslash, < 0x20, >= 0x80
    if (const uint64_t flags = special & kHigh) return p + std::countr_zero(flags) / 8;
    p += 8;
  }
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
    ++p;
  }
  return p;
}

}  // namespace

bool JsonScan::string(std::string* out) {
  if (!consume('"')) return false;
  if (out) out->clear();
  while (p_ < end_) {
    // The plain run up to the next quote, backslash, control or non-ASCII byte.
    const char* run = p_;
    p_ = plain_run_end(p_, end_);
    if (out) out->append(run, p_);
    if (p_ == end_) return false;
    const auto c = static_cast<unsigned char>(*p_);
    if (c == '"') {
      ++p_;
      return true;
    }
    if (c < 0x20) return false;  // control characters must be escaped
    if (c == '\\') {
      ++p_;
      if (!escape(out)) return false;
    } else if (!utf8(out)) {
      return false;
    }
  }
  return false;
}

bool JsonScan::escape(std::string* out) {
  if (p_ == end_) return false;
  const char c = *p_++;
  char plain;
  switch (c) {
    case '"': plain = '"'; break;
    case '\\': plain = '\\'; break;
    case '/': plain = '/'; break;
    case 'b': plain = '\b'; break;
    case 'f': plain = '\f'; break;
    case 'n': plain = '\n'; break;
    case 'r': plain = '\r'; break;
    case 't': plain = '\t'; break;
    case 'u': {
      auto read4 = [this](uint32_t& v) {
        if (end_ - p_ < 4) return false;
        v = 0;
        for (int i = 0; i < 4; ++i) {
          const int h = hex(*p_++);
          if (h < 0) return false;
          v = (v << 4) | static_cast<uint32_t>(h);
        }
        return true;
      };
      uint32_t cp;
      if (!read4(cp)) return false;
      if (cp >= 0xDC00 && cp <= 0xDFFF) return false;  // a low surrogate alone
      if (cp >= 0xD800 && cp <= 0xDBFF) {              // must pair with a low one
        uint32_t low;
        if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
        p_ += 2;
        if (!read4(low) || low < 0xDC00 || low > 0xDFFF) return false;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      if (out) put_utf8(cp, *out);
      return true;
    }
    default: return false;
  }
  if (out) out->push_back(plain);
  return true;
}

// Well-formed UTF-8 (RFC 3629): no overlong forms, surrogates or code points past U+10FFFF.
bool JsonScan::utf8(std::string* out) {
  const auto b0 = static_cast<unsigned char>(*p_);
  int len;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
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
    return false;
  }
  if (end_ - p_ < len) return false;
  for (int i = 1; i < len; ++i) {
    const auto b = static_cast<unsigned char>(p_[i]);
    if (b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) return false;
  }
  if (out) out->append(p_, p_ + len);
  p_ += len;
  return true;
}

bool JsonScan::string_view(std::string_view& out, std::string& buf) {
  if (peek() != '"') return false;
  const char* start = p_ + 1;
  if (const char* q = plain_run_end(start, end_); q < end_ && *q == '"') {
    out = std::string_view(start, static_cast<size_t>(q - start));
    p_ = q + 1;
    return true;
  }  // else it needs decoding or checking
  if (!string(&buf)) return false;
  out = buf;
  return true;
}

bool JsonScan::literal(std::string_view word) {
  if (static_cast<size_t>(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word) return false;
  p_ += word.size();
  return true;
}

bool JsonScan::number() {
  const char* start = p_;
  if (p_ < end_ && *p_ == '-') ++p_;
  auto digits = [this] {
    const char* s = p_;
    while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ > s;
  };
  if (p_ < end_ && *p_ == '0') {
    ++p_;
  } else if (!digits()) {
    return false;
  }
  bool integer = true;
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    integer = false;
    if (!digits()) return false;
  }
  if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
    ++p_;
    integer = false;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (!digits()) return false;
  }
  // A strict parser refuses a number that overflows a double: those are left to it, as are
  // integers too long to be sure of.
  if (integer) return p_ - start <= 64;
  double value;
  const auto [end, ec] = std::from_chars(start, p_, value);
  return ec == std::errc() && end == p_;
}

bool JsonScan::int64(int64_t& out) {
  const char c = peek();
  if (c != '-' && (c < '0' || c > '9')) return false;
  const char* start = p_;
  if (!number()) return false;
  const bool negative = *start == '-';
  uint64_t magnitude = 0;
  for (const char* q = start + (negative ? 1 : 0); q < p_; ++q) {
    if (*q < '0' || *q > '9') return false;  // a fraction or exponent
    if (magnitude > (UINT64_MAX - 9) / 10) return false;
    magnitude = magnitude * 10 + static_cast<uint64_t>(*q - '0');
  }
  if (magnitude > static_cast<uint64_t>(INT64_MAX)) return false;
  out = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

bool JsonScan::skip_value(int depth) {
  if (depth >= kMaxDepth) return false;
  switch (peek()) {
    case '"': return string(nullptr);
    case '{': return object([&](std::string_view) { return skip_value(depth + 1); });
    case '[':
      ++p_;
      if (consume(']')) return true;
      do {
        if (!skip_value(depth + 1)) return false;
      } while (consume(','));
      return consume(']');
    case 't': return literal("true");
    case 'f': return literal("false");
    case 'n': return literal("null");
    default: return number();
  }
}

}  // namespace aiperf::endpoints
