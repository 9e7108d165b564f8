#include "tokenizer/added_tokens.h"

#include <algorithm>

#include "tokenizer/unicode_util.h"

namespace aiperf::tok {

namespace {

char32_t last_code_point(std::string_view s) {
  size_t start = s.size() - 1;
  while (start > 0 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
  return uni::next_code_point(s, start);
}

// Regex \w for the single_word check: letters, digits, marks and underscore.
bool is_word_char(char32_t cp) { return cp == '_' || uni::is_alphanumeric(cp); }

}  // namespace

AddedTokenMatcher::AddedTokenMatcher(const std::vector<AddedTokenSpec>& tokens) {
  root_child_.fill(-1);
  nodes_.emplace_back();
  for (const AddedTokenSpec& spec : tokens) {
    if (spec.content.empty()) continue;
    int32_t node = 0;
    for (size_t k = 0; k < spec.content.size(); ++k) {
      auto c = static_cast<unsigned char>(spec.content[k]);
      auto& children = nodes_[node].children;
      auto it = std::find_if(children.begin(), children.end(), [c](const auto& e) { return e.first == c; });
      if (it != children.end()) {
        node = it->second;
        continue;
      }
      auto next = static_cast<int32_t>(nodes_.size());
      nodes_[node].children.emplace_back(c, next);
      if (node == 0) root_child_[c] = next;
      nodes_.emplace_back();
      node = next;
    }
    // A duplicate content keeps the first entry, as a map keyed by content would.
    if (nodes_[node].spec < 0) {
      nodes_[node].spec = static_cast<int32_t>(specs_.size());
      specs_.push_back(spec);
    }
  }
}

int32_t AddedTokenMatcher::longest_at(std::string_view text, size_t pos, size_t& len) const {
  int32_t node = root_child_[static_cast<unsigned char>(text[pos])];
  int32_t best = -1;
  size_t k = pos + 1;
  while (node >= 0) {
    if (nodes_[node].spec >= 0) {
      best = nodes_[node].spec;
      len = k - pos;
    }
    if (k == text.size()) break;
    auto c = static_cast<unsigned char>(text[k++]);
    int32_t next = -1;
    for (const auto& [ch, child] : nodes_[node].children) {
      if (ch == c) {
        next = child;
        break;
      }
    }
    node = next;
  }
  return best;
}

void AddedTokenMatcher::split(std::string_view text, std::vector<Segment>& out) const {
  size_t seg_start = 0;  // end of the previous token match
  size_t pos = 0;
  while (pos < text.size()) {
    if (root_child_[static_cast<unsigned char>(text[pos])] < 0) {
      ++pos;
      continue;
    }
    size_t len = 0;
    int32_t idx = longest_at(text, pos, len);
    if (idx < 0) {
      ++pos;
      continue;
    }
    const AddedTokenSpec& spec = specs_[idx];
    size_t start = pos, stop = pos + len;
    if (spec.single_word) {
      bool word_before = start > 0 && is_word_char(last_code_point(text.substr(0, start)));
      size_t i = stop;
      bool word_after = stop < text.size() && is_word_char(uni::next_code_point(text, i));
      if (word_before || word_after) {
        pos = stop;  // the match is consumed (non-overlapping search) but not used
        continue;
      }
    }
    if (spec.lstrip) {
      while (start > seg_start) {
        std::string_view before = text.substr(0, start);
        char32_t cp = last_code_point(before);
        if (!uni::is_whitespace(cp)) break;
        size_t cp_start = start - 1;
        while ((static_cast<unsigned char>(text[cp_start]) & 0xC0) == 0x80) --cp_start;
        start = cp_start;
      }
    }
    if (spec.rstrip) {
      size_t i = stop;
      while (i < text.size()) {
        size_t next = i;
        if (!uni::is_whitespace(uni::next_code_point(text, next))) break;
        i = next;
      }
      stop = i;
    }
    if (seg_start < start) out.push_back({seg_start, start, -1});
    out.push_back({start, stop, spec.id});
    seg_start = stop;
    pos = stop;
  }
  if (seg_start < text.size()) out.push_back({seg_start, text.size(), -1});
}

}  // namespace aiperf::tok
