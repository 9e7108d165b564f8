// The working state of pre-tokenization: a byte buffer and the pieces cut out of it.
// Mirrors HF's PreTokenizedString without offsets: only the piece text and whether the piece
// starts at offset 0 of the original input (needed by Metaspace prepend_scheme "first").
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::tok {

struct Piece {
  uint32_t begin = 0;
  uint32_t end = 0;
  bool at_start = false;
};

struct PieceList {
  std::string buf;
  std::vector<Piece> pieces;

  std::string_view view(const Piece& p) const { return {buf.data() + p.begin, p.end - p.begin}; }

  // Appends `text` to the buffer and returns a piece covering it. `text` must not point
  // into `buf` (the append may reallocate it).
  Piece add(std::string_view text, bool at_start) {
    auto b = static_cast<uint32_t>(buf.size());
    buf.append(text);
    return {b, static_cast<uint32_t>(buf.size()), at_start};
  }
};

// HF SplitDelimiterBehavior.
enum class SplitBehavior { Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous };

// One span of a piece produced by a pattern: [begin, end) relative to the piece.
struct Span {
  uint32_t begin;
  uint32_t end;
  bool is_match;
};

// Cuts `piece` at `spans` (which cover the piece in order) according to `behavior` and appends
// the non-empty results to `out`. The first result inherits piece.at_start.
void split_piece(const Piece& piece, std::vector<Span>& spans, SplitBehavior behavior,
                 std::vector<Piece>& out);

}  // namespace aiperf::tok
