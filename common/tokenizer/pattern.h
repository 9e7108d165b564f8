// A HF `pattern` field: {"String": literal} or {"Regex": pcre}. Used by Split and Replace.
#pragma once
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer/pcre_regex.h"
#include "tokenizer/pieces.h"

namespace aiperf::tok {

class Pattern {
 public:
  // Throws TokenizerError when `j` is neither form or the regex does not compile.
  explicit Pattern(const nlohmann::json& j);

  // Fills `spans` with the matches and the gaps between them, covering s in order
  // (HF Pattern::find_matches). An empty s yields one empty non-match span.
  void find_spans(std::string_view s, std::vector<Span>& spans) const;

  // Replaces every match in s with `content` (HF NormalizedString::replace).
  std::string replace_all(std::string_view s, std::string_view content) const;

 private:
  // Calls on_match(begin, end) for each non-overlapping match.
  template <class F>
  void for_each_match(std::string_view s, F&& on_match) const;

  std::string literal_;
  std::unique_ptr<PcreRegex> regex_;  // null for a literal pattern
};

}  // namespace aiperf::tok
