// PCRE2 regex compiled the way HF's Oniguruma patterns behave: UTF + UCP (Unicode-aware \s,
// \p{..} and case folding), JIT compiled. Immutable after construction; thread-safe.
#pragma once
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include <pcre2.h>

#include <string>
#include <string_view>

namespace aiperf::tok {

class PcreRegex {
 public:
  // Throws TokenizerError (without file name) when the pattern does not compile.
  explicit PcreRegex(std::string_view pattern);
  ~PcreRegex();
  PcreRegex(const PcreRegex&) = delete;
  PcreRegex& operator=(const PcreRegex&) = delete;

  // Calls on_match(begin, end) for every non-overlapping match in `subject`, left to right.
  // An empty match advances the search by one character. `subject` must be valid UTF-8: the
  // caller validates once, so PCRE2_NO_UTF_CHECK is passed on every call (re-validating the
  // whole subject per match made 1 MB inputs take minutes).
  template <class F>
  void for_each_match(std::string_view subject, F&& on_match) const {
    size_t pos = 0;
    size_t begin = 0, end = 0;
    while (pos <= subject.size() && find(subject, pos, begin, end)) {
      on_match(begin, end);
      if (end > begin) {
        pos = end;
      } else {
        if (end >= subject.size()) break;
        pos = end + 1;
        while (pos < subject.size() && (static_cast<unsigned char>(subject[pos]) & 0xC0) == 0x80) ++pos;
      }
    }
  }

 private:
  // Finds the first match at or after `start`; false when there is none.
  bool find(std::string_view subject, size_t start, size_t& begin, size_t& end) const;

  pcre2_code* code_ = nullptr;
};

}  // namespace aiperf::tok
