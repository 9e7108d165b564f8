#include "tokenizer/unicode_v9.h"

#include <utf8proc.h>

#include <algorithm>
#include <cstdint>
#include <iterator>

namespace aiperf::tok::uni {

namespace {

enum : uint8_t { kPunct = 1, kOther = 2, kNonspacing = 4, kMark = 8 };

struct Override {
  char32_t lo, hi;
  uint8_t classes;  // what Unicode 9.0 says for [lo, hi]
};

// Every code point whose classes differ between Unicode 9.0 and utf8proc's Unicode version
// (15 in utf8proc 2.8): mostly characters assigned since 9.0 (no class then), plus U+166D and
// U+111C9 (Po in 9.0) and U+1734 (Mn in 9.0). Derived by comparing the tables of crate
// unicode_categories 0.1.1 with utf8proc_category() over all code points.
constexpr Override kOverrides[] = {
    {0x61D, 0x61D, 0}, {0x7FD, 0x7FD, 0}, {0x890, 0x891, 0}, {0x898, 0x89F, 0}, {0x8CA, 0x8E2, 0},
    {0x9FD, 0x9FE, 0}, {0xA76, 0xA76, 0}, {0xAFA, 0xAFF, 0}, {0xB55, 0xB55, 0}, {0xC04, 0xC04, 0},
    {0xC3C, 0xC3C, 0}, {0xC77, 0xC77, 0}, {0xC84, 0xC84, 0}, {0xCF3, 0xCF3, 0}, {0xD00, 0xD00, 0},
    {0xD3B, 0xD3C, 0}, {0xD81, 0xD81, 0}, {0xEBA, 0xEBA, 0}, {0xECE, 0xECE, 0}, {0x166D, 0x166D, 1},
    {0x1715, 0x1715, 0}, {0x1734, 0x1734, 12}, {0x180F, 0x180F, 0}, {0x1885, 0x1886, 0}, {0x1ABF, 0x1ACE, 0},
    {0x1B7D, 0x1B7E, 0}, {0x1CF2, 0x1CF3, 8}, {0x1CF7, 0x1CF7, 0}, {0x1DF6, 0x1DFB, 0}, {0x2E43, 0x2E4F, 0},
    {0x2E52, 0x2E5D, 0}, {0xA82C, 0xA82C, 0}, {0xA8C5, 0xA8C5, 0}, {0xA8FF, 0xA8FF, 0}, {0xA9BD, 0xA9BD, 8},
    {0x10D24, 0x10D27, 0}, {0x10EAB, 0x10EAD, 0}, {0x10EFD, 0x10EFF, 0}, {0x10F46, 0x10F50, 0},
    {0x10F55, 0x10F59, 0}, {0x10F82, 0x10F89, 0}, {0x11070, 0x11070, 0}, {0x11073, 0x11074, 0},
    {0x110C2, 0x110C2, 0}, {0x110CD, 0x110CD, 0}, {0x11145, 0x11146, 0}, {0x111C9, 0x111C9, 1},
    {0x111CE, 0x111CF, 0}, {0x1123E, 0x1123E, 0}, {0x11241, 0x11241, 0}, {0x1133B, 0x1133B, 0},
    {0x11435, 0x11446, 0}, {0x1144B, 0x1144F, 0}, {0x1145A, 0x1145B, 0}, {0x1145D, 0x1145E, 0},
    {0x11660, 0x1166C, 0}, {0x116B9, 0x116B9, 0}, {0x1182C, 0x1183B, 0}, {0x11930, 0x11935, 0},
    {0x11937, 0x11938, 0}, {0x1193B, 0x1193E, 0}, {0x11940, 0x11940, 0}, {0x11942, 0x11946, 0},
    {0x119D1, 0x119D7, 0}, {0x119DA, 0x119E0, 0}, {0x119E2, 0x119E2, 0}, {0x119E4, 0x119E4, 0},
    {0x11A01, 0x11A0A, 0}, {0x11A33, 0x11A39, 0}, {0x11A3B, 0x11A47, 0}, {0x11A51, 0x11A5B, 0},
    {0x11A8A, 0x11A9C, 0}, {0x11A9E, 0x11AA2, 0}, {0x11B00, 0x11B09, 0}, {0x11C2F, 0x11C36, 0},
    {0x11C38, 0x11C3F, 0}, {0x11C41, 0x11C45, 0}, {0x11C70, 0x11C71, 0}, {0x11C92, 0x11CA7, 0},
    {0x11CA9, 0x11CB6, 0}, {0x11D31, 0x11D36, 0}, {0x11D3A, 0x11D3A, 0}, {0x11D3C, 0x11D3D, 0},
    {0x11D3F, 0x11D45, 0}, {0x11D47, 0x11D47, 0}, {0x11D8A, 0x11D8E, 0}, {0x11D90, 0x11D91, 0},
    {0x11D93, 0x11D97, 0}, {0x11EF3, 0x11EF8, 0}, {0x11F00, 0x11F01, 0}, {0x11F03, 0x11F03, 0},
    {0x11F34, 0x11F3A, 0}, {0x11F3E, 0x11F4F, 0}, {0x11FFF, 0x11FFF, 0}, {0x12FF1, 0x12FF2, 0},
    {0x13430, 0x13440, 0}, {0x13447, 0x13455, 0}, {0x16E97, 0x16E9A, 0}, {0x16F4F, 0x16F4F, 0},
    {0x16F7F, 0x16F87, 0}, {0x16FE2, 0x16FE2, 0}, {0x16FE4, 0x16FE4, 0}, {0x16FF0, 0x16FF1, 0},
    {0x1CF00, 0x1CF2D, 0}, {0x1CF30, 0x1CF46, 0}, {0x1E000, 0x1E006, 0}, {0x1E008, 0x1E018, 0},
    {0x1E01B, 0x1E021, 0}, {0x1E023, 0x1E024, 0}, {0x1E026, 0x1E02A, 0}, {0x1E08F, 0x1E08F, 0},
    {0x1E130, 0x1E136, 0}, {0x1E2AE, 0x1E2AE, 0}, {0x1E2EC, 0x1E2EF, 0}, {0x1E4EC, 0x1E4EF, 0},
    {0x1E944, 0x1E94A, 0}, {0x1E95E, 0x1E95F, 0},
};

uint8_t classes_now(char32_t cp) {
  switch (utf8proc_category(static_cast<utf8proc_int32_t>(cp))) {
    case UTF8PROC_CATEGORY_PC: case UTF8PROC_CATEGORY_PD: case UTF8PROC_CATEGORY_PS: case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI: case UTF8PROC_CATEGORY_PF: case UTF8PROC_CATEGORY_PO:
      return kPunct;
    case UTF8PROC_CATEGORY_CC: case UTF8PROC_CATEGORY_CF: case UTF8PROC_CATEGORY_CO:
      return kOther;
    case UTF8PROC_CATEGORY_MN:
      return kNonspacing | kMark;
    case UTF8PROC_CATEGORY_MC: case UTF8PROC_CATEGORY_ME:
      return kMark;
    default:
      return 0;
  }
}

uint8_t classes_v9(char32_t cp) {
  if (cp < 0x80) return classes_now(cp);
  auto it = std::upper_bound(std::begin(kOverrides), std::end(kOverrides), cp,
                             [](char32_t c, const Override& o) { return c < o.lo; });
  if (it != std::begin(kOverrides) && cp <= std::prev(it)->hi) return std::prev(it)->classes;
  return classes_now(cp);
}

}  // namespace

bool is_punctuation_v9(char32_t cp) { return (classes_v9(cp) & kPunct) != 0; }
bool is_other_v9(char32_t cp) { return (classes_v9(cp) & kOther) != 0; }
bool is_nonspacing_mark_v9(char32_t cp) { return (classes_v9(cp) & kNonspacing) != 0; }
bool is_mark_v9(char32_t cp) { return (classes_v9(cp) & kMark) != 0; }

}  // namespace aiperf::tok::uni
