#include "accuracy/math_grader.h"

#include <cstdint>
#include <vector>

#include "accuracy/math_strip.h"
#include "accuracy/py_regex.h"

namespace aiperf::accuracy {

namespace {

constexpr std::string_view kBoxed = "\\boxed{";

std::string without_char(const std::string& s, char c) {
  std::string out;
  for (char x : s)
    if (x != c) out += x;
  return out;
}

// _format_response_tail: newlines (and the whitespace after them) removed, a leading ':', a
// trailing '.' then a trailing '/' dropped.
std::string format_response_tail(const std::string& boxed) {
  static const PyRegex kNewline("\\n\\s*");
  std::string pred = kNewline.sub(boxed, "");
  if (!pred.empty() && pred[0] == ':') pred.erase(0, 1);
  if (!pred.empty() && pred.back() == '.') pred.pop_back();
  if (!pred.empty() && pred.back() == '/') pred.pop_back();
  return pred;
}

std::optional<std::string> last_number(std::string_view text) {
  static const PyRegex kNumber("-?\\d+(?:\\.\\d+)?(?:/\\d+)?");
  auto all = kNumber.find_all(text);
  if (all.empty()) return std::nullopt;
  return *all.back().groups[0];
}

// Decimal digit strings multiplied exactly (base 1e9 limbs); leading zeros dropped ("0" for zero).
std::string multiply_decimal(const std::string& a, const std::string& b) {
  auto limbs = [](const std::string& s) {
    std::vector<uint64_t> out;
    for (size_t end = s.size(); end > 0;) {
      const size_t begin = end >= 9 ? end - 9 : 0;
      out.push_back(std::stoull(s.substr(begin, end - begin)));
      end = begin;
    }
    return out;
  };
  const auto x = limbs(a), y = limbs(b);
  std::vector<uint64_t> r(x.size() + y.size() + 1, 0);
  constexpr uint64_t kBase = 1000000000ULL;
  for (size_t i = 0; i < x.size(); ++i) {
    uint64_t carry = 0;
    for (size_t j = 0; j < y.size() || carry; ++j) {
      const uint64_t cur = r[i + j] + carry + (j < y.size() ? x[i] * y[j] : 0);
      r[i + j] = cur % kBase;
      carry = cur / kBase;
    }
  }
  while (r.size() > 1 && r.back() == 0) r.pop_back();
  std::string out = std::to_string(r.back());
  for (size_t i = r.size() - 1; i-- > 0;) {
    const std::string part = std::to_string(r[i]);
    out += std::string(9 - part.size(), '0') + part;
  }
  return out;
}

bool digits_zero(const std::string& digits) { return digits.find_first_not_of('0') == std::string::npos; }

// Python's int() of an exponent ("-1_0"), saturated far beyond any answer's scale.
long long exponent_value(const std::string& text) {
  long long v = 0;
  bool negative = false;
  for (char c : text) {
    if (c == '-') negative = true;
    else if (c >= '0' && c <= '9') v = v > 1'000'000'000'000LL ? v : v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

}  // namespace

std::optional<std::string> math_last_boxed(std::string_view text) {
  const size_t at = text.rfind(kBoxed);
  if (at == std::string_view::npos) return std::nullopt;
  const size_t start = at + kBoxed.size();
  int depth = 0;
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] == '{') {
      ++depth;
    } else if (text[i] == '}') {
      if (depth == 0) return std::string(text.substr(start, i - start));
      --depth;
    }
  }
  return std::nullopt;
}

std::pair<std::string, bool> math_extract_answer(std::string_view response_in) {
  static const PyRegex kPhrase(
      "(?i)(?:final\\s+answer|the\\s+answer\\s+is|answer\\s*[:=]|answer\\s+is)\\s*[:=]?\\s*"
      "(.+?)(?:(?<!\\d)\\.(?!\\d)|\\n|$)");
  static const PyRegex kLatexHint("[\\\\{}]");
  if (response_in.empty()) return {"", true};
  const std::string response = valid_utf8(response_in);
  if (auto boxed = math_last_boxed(response)) return {format_response_tail(*boxed), false};
  // The last phrase: a model that corrects itself means its final claim.
  if (auto phrases = kPhrase.find_all(response); !phrases.empty()) {
    const std::string tail = py_strip(*phrases.back().groups[1]);
    if (auto boxed = math_last_boxed(tail)) return {format_response_tail(*boxed), true};
    if (kLatexHint.search(tail)) return {tail, true};  // an expression: kept whole
    if (auto n = last_number(tail)) return {*n, true};
    return {tail, true};
  }
  if (auto n = last_number(response)) return {*n, true};
  return {py_strip(response), true};
}

std::string math_stdlib_normalize(std::string_view expr) {
  static const PyRegex kTrailingPunct("[.,;:!?]+$");
  static const PyRegex kLeftRight("\\\\(?:left|right)");
  static const PyRegex kDfrac("\\\\(?:dfrac|tfrac)");
  static const PyRegex kSimpleFrac("\\\\frac\\{([^{}]+)\\}\\{([^{}]+)\\}");
  static const PyRegex kTextWrapper("\\\\(?:text|mathrm|mathit|mathbf)\\{([^{}]*)\\}");
  static const PyRegex kSpace("\\s+");
  std::string s = py_strip(expr);
  s = kTrailingPunct.sub(s, "");
  if (s.size() >= 2 && s.front() == '$' && s.back() == '$') s = s.substr(1, s.size() - 2);
  s = kLeftRight.sub(s, "");
  s = kDfrac.sub(s, "\\\\frac");
  s = kSimpleFrac.sub(s, "(\\1)/(\\2)");
  s = kTextWrapper.sub(s, "\\1");
  return kSpace.sub(s, "");
}

std::optional<PyFraction> py_fraction(std::string_view text) {
  // fractions._RATIONAL_FORMAT of CPython 3.11, its "d*" slip in the decimal part included
  // (a "d" there matches, then int() refuses it).
  static const PyRegex kRational(
      "(?i)\\A\\s*([-+]?)(?=[0-9]|\\.[0-9])([0-9]*|[0-9]+(_[0-9]+)*)"
      "(?:(?:/([0-9]+(_[0-9]+)*))?|(?:\\.(d*|[0-9]+(_[0-9]+)*))?(?:E([-+]?[0-9]+(_[0-9]+)*))?)\\s*\\z");
  const auto m = kRational.search(text);
  if (!m) return std::nullopt;
  PyFraction f;
  f.negative = *m->groups[1] == "-";
  // Each part goes through int(), which refuses more than kPyMaxStrDigits digits.
  auto too_long = [](const std::string& digits) {
    return digits.size() - (digits.empty() || (digits[0] != '-' && digits[0] != '+') ? 0 : 1) > kPyMaxStrDigits;
  };
  const std::string num = without_char(m->groups[2].value_or(""), '_');
  if (too_long(num)) return std::nullopt;
  f.digits = num.empty() ? "0" : num;
  if (m->groups[4] && !m->groups[4]->empty()) {
    f.denom = without_char(*m->groups[4], '_');
    if (too_long(f.denom)) return std::nullopt;
    if (digits_zero(f.denom)) return std::nullopt;  // ZeroDivisionError
    return f;
  }
  if (m->groups[6] && !m->groups[6]->empty()) {
    const std::string decimal = without_char(*m->groups[6], '_');
    if (decimal.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;  // int("d")
    if (too_long(decimal)) return std::nullopt;
    f.digits += decimal;
    f.exp10 -= static_cast<long long>(decimal.size());
  }
  if (m->groups[8] && !m->groups[8]->empty()) {
    const std::string exp = without_char(*m->groups[8], '_');
    if (too_long(exp)) return std::nullopt;
    f.exp10 += exponent_value(exp);
  }
  return f;
}

bool fraction_equal(const PyFraction& a, const PyFraction& b) {
  // a.digits * 10^a.exp / a.denom == b.digits * 10^b.exp / b.denom, cross-multiplied; the
  // powers of ten are compared as exponents after moving trailing zeros into them.
  std::string p = multiply_decimal(a.digits, b.denom), q = multiply_decimal(b.digits, a.denom);
  const bool pz = digits_zero(p), qz = digits_zero(q);
  if (pz || qz) return pz && qz;
  if (a.negative != b.negative) return false;
  long long pe = a.exp10, qe = b.exp10;
  while (p.size() > 1 && p.back() == '0') p.pop_back(), ++pe;
  while (q.size() > 1 && q.back() == '0') q.pop_back(), ++qe;
  return p == q && pe == qe;
}

namespace {

std::optional<PyFraction> to_fraction(const std::string& value) {
  if (value.empty()) return std::nullopt;
  return py_fraction(py_replace(py_replace(py_strip(value), "(", ""), ")", ""));
}

// _stdlib_fallback_equal.
bool stdlib_fallback_equal(const std::string& prediction, const std::string& reference) {
  const std::string pred = math_stdlib_normalize(prediction), gold = math_stdlib_normalize(reference);
  const auto pf = to_fraction(pred), gf = to_fraction(gold);
  if (pf && gf) return fraction_equal(*pf, *gf);
  return pred == gold && !pred.empty();
}

}  // namespace

GradingResult grade_math(std::string_view response, std::string_view ground_truth_in) {
  const std::string ground_truth = valid_utf8(ground_truth_in);
  auto [pred_raw, unparsed] = math_extract_answer(response);
  const std::string pred_stripped = math_strip_string(pred_raw);
  const std::string gold_stripped = math_strip_string(ground_truth);
  GradingResult r;
  r.correct = stdlib_fallback_equal(pred_stripped, gold_stripped);
  r.unparsed = unparsed;
  r.confidence = r.correct ? 1.0 : 0.0;
  r.reasoning = "extracted '" + pred_raw + "' (stripped '" + pred_stripped + "'); ground_truth '" + ground_truth +
                "' (stripped '" + gold_stripped +
                "'); compared via stdlib-fallback; match=" + (r.correct ? "True" : "False") +
                (unparsed ? " (regex fallback)" : "");
  r.extracted_answer = std::move(pred_raw);
  r.ground_truth = py_strip(ground_truth);
  return r;
}

}  // namespace aiperf::accuracy
