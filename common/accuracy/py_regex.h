// Python `re` patterns the graders use, run with PCRE2 in UTF + UCP mode so \w, \b and \s are
// Unicode-aware as they are for Python str patterns. Only what the graders need: the first
// match at or after a position, with its groups.
#pragma once
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::accuracy {

struct PyMatch {
  size_t begin = 0, end = 0;
  std::vector<std::optional<std::string>> groups;  // groups[0] is the whole match
};

class PyRegex {
 public:
  // `dotall`: re.DOTALL. Throws std::invalid_argument when the pattern does not compile.
  explicit PyRegex(std::string_view pattern, bool dotall = false);
  ~PyRegex();
  PyRegex(const PyRegex&) = delete;
  PyRegex& operator=(const PyRegex&) = delete;

  // re.search from byte offset `start`. `subject` must be valid UTF-8 (callers sanitize).
  std::optional<PyMatch> search(std::string_view subject, size_t start = 0) const;
  // re.finditer: every non-overlapping match, left to right.
  std::vector<PyMatch> find_all(std::string_view subject) const;
  // re.sub(pattern, template, subject): every non-overlapping match replaced by `tmpl`, in which
  // a backslash and a digit N stand for group N (empty when it did not take part) and two
  // backslashes for one (what Python's template does with r"\1" and r"\\").
  std::string sub(std::string_view subject, std::string_view tmpl) const;

 private:
  pcre2_code* code_ = nullptr;
};

// Python's str.strip(): removes leading and trailing characters for which str.isspace() is
// true (ASCII whitespace, \x1c-\x1f, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000).
std::string py_strip(std::string_view s);
// Invalid UTF-8 sequences replaced by U+FFFD (Python decodes response bytes with "replace").
std::string valid_utf8(std::string_view s);

}  // namespace aiperf::accuracy
