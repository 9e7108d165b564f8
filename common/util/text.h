// Small text helpers shared by the parsers of options and input files.
#pragma once
#include <string>
#include <string_view>

namespace aiperf::util {

// Python's str.isspace() characters of ASCII (what .strip() removes).
inline constexpr std::string_view kAsciiSpace = " \t\n\r\f\v";
// Blanks and line ends: what a line-oriented text field is trimmed of.
inline constexpr std::string_view kBlankOrNewline = " \t\r\n";

// `s` without leading and trailing characters of `ws` (default: spaces and tabs).
inline std::string trim(std::string_view s, std::string_view ws = " \t") {
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return std::string(s.substr(b, s.find_last_not_of(ws) - b + 1));
}

// True when `s` is a non-empty stem followed by `suffix` ("x_sum" has suffix "_sum"; "_sum" does not).
inline bool has_suffix(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.ends_with(suffix);
}

// `s` with ASCII letters lowered (option values and file extensions are ASCII).
inline std::string ascii_lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

}  // namespace aiperf::util
