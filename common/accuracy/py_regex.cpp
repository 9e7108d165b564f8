#include "accuracy/py_regex.h"

#include <stdexcept>

namespace aiperf::accuracy {

PyRegex::PyRegex(std::string_view pattern, bool dotall) {
  int err = 0;
  PCRE2_SIZE offset = 0;
  uint32_t options = PCRE2_UTF | PCRE2_UCP;
  if (dotall) options |= PCRE2_DOTALL;
  code_ = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &err, &offset, nullptr);
  if (!code_) {
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(err, buf, sizeof buf);
    throw std::invalid_argument("regex '" + std::string(pattern) + "': " + reinterpret_cast<char*>(buf));
  }
}

PyRegex::~PyRegex() { pcre2_code_free(code_); }

std::optional<PyMatch> PyRegex::search(std::string_view subject, size_t start) const {
  pcre2_match_data* md = pcre2_match_data_create_from_pattern(code_, nullptr);
  const int rc = pcre2_match(code_, reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(), start,
                             PCRE2_NO_UTF_CHECK, md, nullptr);
  std::optional<PyMatch> out;
  if (rc > 0) {
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(md);
    uint32_t count = 0;
    pcre2_pattern_info(code_, PCRE2_INFO_CAPTURECOUNT, &count);
    PyMatch m;
    m.begin = ov[0];
    m.end = ov[1];
    for (uint32_t g = 0; g <= count; ++g) {
      if (static_cast<int>(g) < rc && ov[2 * g] != PCRE2_UNSET)
        m.groups.emplace_back(std::string(subject.substr(ov[2 * g], ov[2 * g + 1] - ov[2 * g])));
      else m.groups.emplace_back(std::nullopt);
    }
    out = std::move(m);
  }
  pcre2_match_data_free(md);
  return out;
}

std::vector<PyMatch> PyRegex::find_all(std::string_view subject) const {
  std::vector<PyMatch> out;
  size_t pos = 0;
  while (pos <= subject.size()) {
    auto m = search(subject, pos);
    if (!m) break;
    if (m->end > m->begin) {
      pos = m->end;
    } else {  // an empty match: step one character
      pos = m->end + 1;
      while (pos < subject.size() && (static_cast<unsigned char>(subject[pos]) & 0xC0) == 0x80) ++pos;
    }
    out.push_back(std::move(*m));
  }
  return out;
}

std::string PyRegex::sub(std::string_view subject, std::string_view tmpl) const {
  std::string out;
  size_t last = 0;
  for (const PyMatch& m : find_all(subject)) {
    out.append(subject.substr(last, m.begin - last));
    for (size_t i = 0; i < tmpl.size(); ++i) {
      if (tmpl[i] == '\\' && i + 1 < tmpl.size()) {
        const char n = tmpl[i + 1];
        if (n >= '0' && n <= '9') {
          const auto g = static_cast<size_t>(n - '0');
          if (g < m.groups.size() && m.groups[g]) out += *m.groups[g];
          ++i;
          continue;
        }
        if (n == '\\') {
          out += '\\';
          ++i;
          continue;
        }
      }
      out += tmpl[i];
    }
    last = m.end;
  }
  out.append(subject.substr(last));
  return out;
}

namespace {

// Length of the Python-whitespace character at s[i] (0 when it is not one).
size_t space_at(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f)) return 1;
  auto cp3 = [&](size_t n) -> uint32_t {
    if (i + n > s.size()) return 0;
    uint32_t v = 0;
    for (size_t k = 0; k < n; ++k) v = (v << 8) | static_cast<unsigned char>(s[i + k]);
    return v;
  };
  if (c == 0xc2) {
    const uint32_t v = cp3(2);
    if (v == 0xc285 || v == 0xc2a0) return 2;
  } else if (c == 0xe1) {
    if (cp3(3) == 0xe19a80) return 3;  // U+1680
  } else if (c == 0xe2) {
    const uint32_t v = cp3(3);
    if ((v >= 0xe28080 && v <= 0xe2808a) || v == 0xe280a8 || v == 0xe280a9 || v == 0xe280af || v == 0xe2819f) return 3;
  } else if (c == 0xe3) {
    if (cp3(3) == 0xe38080) return 3;  // U+3000
  }
  return 0;
}

}  // namespace

std::string py_strip(std::string_view s) {
  size_t b = 0;
  while (b < s.size()) {
    const size_t n = space_at(s, b);
    if (!n) break;
    b += n;
  }
  size_t e = s.size();
  while (e > b) {
    // Step back to the start of the last character.
    size_t k = e - 1;
    while (k > b && (static_cast<unsigned char>(s[k]) & 0xC0) == 0x80) --k;
    if (space_at(s, k) != e - k) break;
    e = k;
  }
  return std::string(s.substr(b, e - b));
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && n == 2) ok = c >= 0xc2;
    if (ok && n == 3) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    }
    if (ok && n == 4) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = c <= 0xf4 && !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    if (ok) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

}  // namespace aiperf::accuracy
