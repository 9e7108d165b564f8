// A Rich-style text table (the look of AIPerf's console tables): centred title, padded cells,
// right/left justification, multi-line cells, box.HEAVY_HEAD glyphs or box.ASCII.
#pragma once
#include <string>
#include <vector>

namespace aiperf::exporting {

enum class Justify { kLeft, kRight };

struct TextTable {
  std::string title;
  std::vector<std::string> headers;
  std::vector<Justify> justify;                // one per column, applies to header too
  std::vector<std::vector<std::string>> rows;  // a cell may hold '\n' for extra lines
};

// Renders the table, every line ending in '\n'. Column width = widest cell line + 1 space
// padding each side; each line of the title is centred over the table without trailing spaces
// (an empty title line stays empty).
std::string render_table(const TextTable& table, bool unicode_box);

}  // namespace aiperf::exporting
