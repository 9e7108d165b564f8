// A validating JSON reader that walks a text without building a tree: the hot path of
// response parsing reads a few members of each stream event and skips the rest.
//
// It accepts a subset of what nlohmann::json::parse accepts, with the same meaning (RFC 8259,
// strings checked as UTF-8, control characters refused, duplicate keys: the caller sees each
// occurrence in order, so "last one wins" is the caller's to keep). Whatever it refuses -
// invalid JSON, but also a byte-order mark, nesting deeper than kMaxDepth or a number it does
// not read - makes its functions return false; callers then hand the text to nlohmann, which
// decides (and words any error). So it never needs to be more lenient, only never wrong.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace aiperf::endpoints {

class JsonScan {
 public:
  static constexpr int kMaxDepth = 64;

  explicit JsonScan(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  // The next non-whitespace byte, or 0 at the end.
  char peek() {
    skip_ws();
    return p_ < end_ ? *p_ : '\0';
  }
  // Consumes `c` (after whitespace) if it is next.
  bool consume(char c) {
    if (peek() != c) return false;
    ++p_;
    return true;
  }
  // True when only whitespace is left.
  bool at_end() { return peek() == '\0' && p_ == end_; }

  // A string (next, after whitespace): decoded into `out` (replaced), or only checked when
  // `out` is null.
  bool string(std::string* out);
  // A string (next, after whitespace) as a view into the text when it has no escapes, else
  // decoded into `buf` (a view of it).
  bool string_view(std::string_view& out, std::string& buf);
  // A member key: string_view.
  bool key(std::string_view& out, std::string& buf) { return string_view(out, buf); }
  // Any value, checked and skipped.
  bool skip_value() { return skip_value(0); }
  // An integer that fits int64_t (no fraction or exponent); anything else is refused.
  bool int64(int64_t& out);

  // Walks an object (next, after whitespace): for each member, `on_member(key)` must consume
  // the value and return true to go on.
  template <class OnMember>
  bool object(OnMember&& on_member) {
    if (!consume('{')) return false;
    if (consume('}')) return true;
    std::string_view k;
    do {
      if (!key(k, key_buf_) || !consume(':')) return false;
      if (!on_member(k)) return false;
    } while (consume(','));
    return consume('}');
  }

 private:
  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool skip_value(int depth);
  bool number();
  bool literal(std::string_view word);
  bool escape(std::string* out);  // after the backslash
  bool utf8(std::string* out);    // a multi-byte sequence at p_

  const char* p_;
  const char* end_;
  std::string key_buf_;
};

}  // namespace aiperf::endpoints
