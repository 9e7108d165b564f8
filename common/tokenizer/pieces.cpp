#include "tokenizer/pieces.h"

#include <algorithm>

namespace aiperf::tok {

namespace {

// Folds spans in place per HF's NormalizedString::split; afterwards is_match is meaningless
// except for Removed, where matched spans are dropped.
void fold_spans(std::vector<Span>& spans, SplitBehavior behavior) {
  std::vector<Span> acc;
  acc.reserve(spans.size());
  bool previous_match = false;
  switch (behavior) {
    case SplitBehavior::Isolated:
      return;
    case SplitBehavior::Removed:
      for (const Span& s : spans)
        if (!s.is_match) acc.push_back(s);
      break;
    case SplitBehavior::MergedWithPrevious:
      for (const Span& s : spans) {
        if (s.is_match && !previous_match && !acc.empty()) {
          acc.back().end = s.end;
        } else {
          acc.push_back(s);
        }
        previous_match = s.is_match;
      }
      break;
    case SplitBehavior::MergedWithNext:
      // Same as MergedWithPrevious walking right to left: a match joins the span after it.
      for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
        if (it->is_match && !previous_match && !acc.empty()) {
          acc.back().begin = it->begin;
        } else {
          acc.push_back(*it);
        }
        previous_match = it->is_match;
      }
      std::reverse(acc.begin(), acc.end());
      break;
    case SplitBehavior::Contiguous:
      for (const Span& s : spans) {
        if (s.is_match == previous_match && !acc.empty()) {
          acc.back().end = s.end;
        } else {
          acc.push_back(s);
        }
        previous_match = s.is_match;
      }
      break;
  }
  spans.swap(acc);
}

}  // namespace

void split_piece(const Piece& piece, std::vector<Span>& spans, SplitBehavior behavior,
                 std::vector<Piece>& out) {
  fold_spans(spans, behavior);
  for (const Span& s : spans) {
    if (s.end == s.begin) continue;
    out.push_back({piece.begin + s.begin, piece.begin + s.end, piece.at_start && s.begin == 0});
  }
}

}  // namespace aiperf::tok
