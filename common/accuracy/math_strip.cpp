#include "accuracy/math_strip.h"

#include <memory>
#include <vector>

#include "accuracy/py_regex.h"

namespace aiperf::accuracy {

namespace {

// The MathQA unit words strip_string removes (the reference's _UNIT_TEXTS_BASE, in its order;
// each is tried as a regex, so "." matches any character, and then its plural with "s").
constexpr const char* kUnitTexts[] = {
    "east",   "degree",  "mph",    "kmph",      "ft",       "m square",     " m east", "sq m",    "deg",
    "mile",   "q .",     "monkey", "prime",     "ratio",    "profit of rs", "rd",      "o",       "gm",
    "p . m",  "lb",      "tile",   "per",       "dm",       "lt",           "gain",    "ab",      "way",
    "west",   "a .",     "b .",    "c .",       "d .",      "e .",          "f .",     "g .",     "h .",
    "t",      "a",       "h",      "no change", "men",      "soldier",      "pie",     "bc",      "excess",
    "st",     "inches",  "noon",   "percent",   "by",       "gal",          "kmh",     "c",       "acre",
    "rise",   "a . m",   "th",     "π r 2",     "sq",       "mark",         "l",       "toy",     "coin",
    "sq . m", "gallon",  "° f",    "profit",    "minw",     "yr",           "women",   "feet",    "am",
    "pm",     "hr",      "cu cm",  "square",    "v â € ™",  "are",          "rupee",   "rounds",  "cubic",
    "cc",     "mtr",     "s",      "ohm",       "number",   "kmph",         "day",     "hour",    "minute",
    "min",    "second",  "man",    "woman",     "sec",      "cube",         "mt",      "sq inch", "mp",
    "∏ cm ³", "hectare", "more",   "sec",       "unit",     "cu . m",       "cm 2",    "rs .",    "rs",
    "kg",     "g",       "month",  "km",        "m",        "cm",           "mm",      "apple",   "liter",
    "loss",   "yard",    "pure",   "year",      "increase", "decrease",     "d",       "less",    "Surface",
    "litre",  "pi sq m", "s .",    "metre",     "meter",    "inch"};

// One compiled "(^|\W)<unit>($|\W)" per unit text, the singulars then the plurals.
const std::vector<std::unique_ptr<PyRegex>>& unit_patterns() {
  static const std::vector<std::unique_ptr<PyRegex>> kAll = [] {
    std::vector<std::unique_ptr<PyRegex>> v;
    for (const char* suffix : {"", "s"})
      for (const char* u : kUnitTexts)
        v.push_back(std::make_unique<PyRegex>(std::string("(^|\\W)") + u + suffix + "($|\\W)"));
    return v;
  }();
  return kAll;
}

std::vector<std::string> split_on(const std::string& s, std::string_view sep) {
  std::vector<std::string> out;
  size_t pos = 0;
  for (size_t hit; (hit = s.find(sep, pos)) != std::string::npos; pos = hit + sep.size())
    out.push_back(s.substr(pos, hit - pos));
  out.push_back(s.substr(pos));
  return out;
}

// Byte length of the UTF-8 character starting at s[i].
size_t utf8_char_len(std::string_view s, size_t i) {
  size_t n = 1;
  while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
  return n;
}

// _fix_fracs: "\fracXY" -> "\frac{X}{Y}", "\fracX{..." -> "\frac{X}{...", by characters.
std::string fix_fracs(const std::string& string) {
  const std::vector<std::string> substrs = split_on(string, "\\frac");
  std::string out = substrs[0];
  for (size_t k = 1; k < substrs.size(); ++k) {
    const std::string& sub = substrs[k];
    out += "\\frac";
    if (!sub.empty() && sub[0] == '{') {
      out += sub;
      continue;
    }
    if (py_len(sub) < 2) return string;
    const size_t la = utf8_char_len(sub, 0);
    const size_t lb = utf8_char_len(sub, la);
    const std::string a = sub.substr(0, la), b = sub.substr(la, lb), post = sub.substr(la + lb);
    if (b != "{") out += "{" + a + "}{" + b + "}" + post;
    else out += "{" + a + "}" + b + post;
  }
  return out;
}

// _fix_a_slash_b: "a/b" with integer parts (or parts holding "sqrt") -> "\frac{a}{b}".
std::string fix_a_slash_b(const std::string& string) {
  const std::vector<std::string> parts = split_on(string, "/");
  if (parts.size() != 2) return string;
  std::string a = parts[0], b = parts[1];
  if (a.find("sqrt") == std::string::npos) {
    auto v = py_int_text(a);
    if (!v) return string;
    a = *v;
  }
  if (b.find("sqrt") == std::string::npos) {
    auto v = py_int_text(b);
    if (!v) return string;
    b = *v;
  }
  return "\\frac{" + a + "}{" + b + "}";
}

}  // namespace

std::string py_replace(std::string_view s, std::string_view from, std::string_view to) {
  if (from.empty()) return std::string(s);
  std::string out;
  size_t pos = 0;
  for (size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
    out.append(s.substr(pos, hit - pos));
    out.append(to);
  }
  out.append(s.substr(pos));
  return out;
}

size_t py_len(std::string_view s) {
  size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

std::optional<std::string> py_int_text(std::string_view in) {
  const std::string s = py_strip(in);
  size_t i = 0;
  bool negative = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
  std::string digits;
  bool prev_digit = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') {
      digits += c;
      prev_digit = true;
    } else if (c == '_' && prev_digit && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '9') {
      prev_digit = false;
    } else {
      return std::nullopt;
    }
  }
  if (digits.empty() || digits.size() > kPyMaxStrDigits) return std::nullopt;
  const size_t nz = digits.find_first_not_of('0');
  if (nz == std::string::npos) return std::string("0");
  return (negative ? "-" : "") + digits.substr(nz);
}

std::string math_strip_string(std::string_view text) {
  static const PyRegex kArrayBegin("\\\\begin\\{array\\}\\{.*?\\}");
  static const PyRegex kArrayEnd("\\\\end\\{array\\}");
  static const PyRegex kTrailingText("\\\\text{.*?}$");
  static const PyRegex kText("\\\\text\\{(.*?)\\}");
  static const PyRegex kMonths(
      "(?i)\\b(January|February|March|April|May|June|July|August|September|October|November|December)\\b");
  static const PyRegex kMbox("\\\\mbox{.*?}");
  static const PyRegex kZerosBeforeOther("(\\d+)\\.0*([^\\d])");
  static const PyRegex kZerosAtEnd("(\\d+)\\.0*$");
  static const PyRegex kSqrt("\\\\sqrt(\\w+)");

  std::string s = py_strip(text);
  s = py_replace(s, "\n", "");
  while (!s.empty() && s.back() == '.') s.pop_back();
  s = py_replace(s, "\\!", "");
  // matrices
  s = kArrayBegin.sub(s, "\\\\begin{pmatrix}");
  s = kArrayEnd.sub(s, "\\\\end{pmatrix}");
  s = py_replace(s, "bmatrix", "pmatrix");
  // fraction spellings and relations
  s = py_replace(s, "tfrac", "frac");
  s = py_replace(s, "dfrac", "frac");
  s = py_replace(py_replace(py_replace(s, "\\neq", "\\ne"), "\\leq", "\\le"), "\\geq", "\\ge");
  s = py_replace(s, "\\left", "");
  s = py_replace(s, "\\right", "");
  s = py_replace(s, "\\{", "{");
  s = py_replace(s, "\\}", "}");
  // a trailing \text{...}
  if (std::string t = py_strip(kTrailingText.sub(s, "")); !t.empty() && t != s) s = t;
  // units (a substitution that would leave nothing is not taken)
  for (const auto& unit : unit_patterns())
    if (std::string t = unit->sub(s, "\\1\\2"); !t.empty()) s = std::move(t);
  s = py_replace(s, "^{\\circ}", "");
  s = py_replace(s, "^\\circ", "");
  s = py_replace(s, "\\$", "");
  s = py_replace(s, "$", "");
  s = py_replace(py_replace(s, "\\(", ""), "\\)", "");
  s = kText.sub(s, "\\1");
  for (const char* key : {"x=", "y=", "z=", "x\\in", "y\\in", "z\\in", "x\\to", "y\\to", "z\\to"})
    s = py_replace(s, key, "");
  s = py_replace(s, "\\emptyset", "{}");
  s = py_replace(s, "(-\\infty,\\infty)", "\\mathbb{R}");
  s = py_replace(s, "\\%", "");
  s = py_replace(s, "%", "");
  s = kMonths.sub(s, "");
  s = py_replace(s, " .", " 0.");
  s = py_replace(s, "{.", "{0.");
  // (The reference's unwrapping of "{...}", "(...)", "[...]" tests isalnum() on the whole
  // string, brackets included, so it never applies.)
  s = py_replace(s, "infinity", "\\infty");
  if (s.find("\\infty") == std::string::npos) s = py_replace(s, "inf", "\\infty");
  s = py_replace(s, "+\\inity", "\\infty");
  s = py_replace(s, "and", "");
  s = py_replace(s, "\\mathbf", "");
  s = kMbox.sub(s, "");
  if (s.find('j') != std::string::npos && s.find('i') == std::string::npos) s = py_replace(s, "j", "i");
  s = kZerosBeforeOther.sub(s, "\\1\\2");
  s = kZerosAtEnd.sub(s, "\\1");
  if (s.empty()) return s;
  if (s[0] == '.') s = "0" + s;
  // "k = X" -> "X"
  if (const auto parts = split_on(s, "="); parts.size() == 2 && py_len(parts[0]) <= 2) s = parts[1];
  s = kSqrt.sub(s, "\\\\sqrt{\\1}");
  s = py_replace(s, " ", "");
  s = fix_fracs(s);
  return fix_a_slash_b(s);
}

}  // namespace aiperf::accuracy
