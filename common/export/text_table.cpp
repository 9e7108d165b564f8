#include "export/text_table.h"

#include <algorithm>
#include <sstream>

namespace aiperf::exporting {

namespace {

struct Box {
  const char* top[4];     // left, fill, divider, right
  const char* head[3];    // left, divider, right
  const char* head_sep[4];
  const char* body[3];
  const char* bottom[4];
};

constexpr Box kHeavyHead = {{"┏", "━", "┳", "┓"},
                            {"┃", "┃", "┃"},
                            {"┡", "━", "╇", "┩"},
                            {"│", "│", "│"},
                            {"└", "─", "┴", "┘"}};
constexpr Box kAscii = {{"+", "-", "-", "+"},
                        {"|", "|", "|"},
                        {"|", "-", "+", "|"},
                        {"|", "|", "|"},
                        {"+", "-", "-", "+"}};

// Terminal cells of a UTF-8 string: one per code point (no wide-character tables needed for
// the ASCII labels and numbers these tables hold).
std::size_t cells(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::vector<std::string> split_lines(const std::string& cell) {
  std::vector<std::string> lines;
  std::istringstream in(cell);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  if (lines.empty()) lines.emplace_back();
  return lines;
}

std::string repeat(const char* glyph, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += glyph;
  return out;
}

std::string rule(const char* const glyphs[4], const std::vector<std::size_t>& widths) {
  std::string line = glyphs[0];
  for (std::size_t c = 0; c < widths.size(); ++c) {
    if (c) line += glyphs[2];
    line += repeat(glyphs[1], widths[c] + 2);
  }
  return line + glyphs[3] + "\n";
}

// One row of cells (each possibly multi-line) between vertical borders.
std::string cells_row(const std::vector<std::string>& row, const char* const borders[3],
                      const std::vector<std::size_t>& widths, const std::vector<Justify>& justify) {
  std::vector<std::vector<std::string>> lines;
  std::size_t height = 1;
  for (const auto& cell : row) {
    lines.push_back(split_lines(cell));
    height = std::max(height, lines.back().size());
  }
  std::string out;
  for (std::size_t l = 0; l < height; ++l) {
    out += borders[0];
    for (std::size_t c = 0; c < widths.size(); ++c) {
      if (c) out += borders[1];
      const std::string text = l < lines[c].size() ? lines[c][l] : std::string();
      const std::string pad(widths[c] - cells(text), ' ');
      out += ' ';
      out += justify[c] == Justify::kRight ? pad + text : text + pad;
      out += ' ';
    }
    out += borders[2];
    out += '\n';
  }
  return out;
}

}  // namespace

std::string render_table(const TextTable& table, bool unicode_box) {
  const Box& box = unicode_box ? kHeavyHead : kAscii;
  std::vector<std::size_t> widths(table.headers.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t c = 0; c < widths.size(); ++c) {
      for (const auto& line : split_lines(row[c])) widths[c] = std::max(widths[c], cells(line));
    }
  };
  widen(table.headers);
  for (const auto& row : table.rows) widen(row);

  std::size_t total = widths.size() + 1;  // borders
  for (auto w : widths) total += w + 2;

  std::string out;
  for (const auto& line : split_lines(table.title)) {
    const std::size_t title_cells = cells(line);
    if (title_cells) out += std::string(total > title_cells ? (total - title_cells) / 2 : 0, ' ');
    out += line + "\n";
  }
  out += rule(box.top, widths);
  out += cells_row(table.headers, box.head, widths, table.justify);
  out += rule(box.head_sep, widths);
  for (const auto& row : table.rows) out += cells_row(row, box.body, widths, table.justify);
  out += rule(box.bottom, widths);
  return out;
}

}  // namespace aiperf::exporting
