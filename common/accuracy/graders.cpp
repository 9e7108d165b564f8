#include "accuracy/graders.h"

#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>

#include "accuracy/math_grader.h"
#include "accuracy/py_regex.h"

namespace aiperf::accuracy {

namespace {

const char* py_bool(bool b) { return b ? "True" : "False"; }

// response.split("\n", 1)[0].strip()
std::string first_line_stripped(std::string_view text) { return py_strip(text.substr(0, text.find('\n'))); }

struct ChoicePatterns {
  PyRegex tier1, tier2, tier3;
  explicit ChoicePatterns(const std::string& cls)
      : tier1("answer is \\(?(" + cls + ")\\)?"),
        tier2(".*[aA]nswer:\\s*(" + cls + ")", true),
        tier3("\\b" + cls + "\\b(?!.*\\b" + cls + "\\b)", true) {}
};

const ChoicePatterns& patterns_for(std::string_view letters) {
  // The graders use two letter ranges; each gets its patterns compiled once.
  static const ChoicePatterns kAbcd("[ABCD]");
  static const ChoicePatterns kAtoJ("[ABCDEFGHIJ]");
  if (letters == "ABCD") return kAbcd;
  if (letters == "ABCDEFGHIJ") return kAtoJ;
  throw std::invalid_argument("extract_choice_letter: unsupported letters " + std::string(letters));
}

}  // namespace

std::pair<std::string, int> extract_choice_letter(std::string_view text_in, std::string_view letters) {
  const std::string text = valid_utf8(text_in);
  const ChoicePatterns& p = patterns_for(letters);
  auto all = p.tier1.find_all(text);
  if (!all.empty()) return {*all.back().groups[1], 1};
  if (auto m = p.tier2.search(text)) return {*m->groups[1], 2};
  if (auto m = p.tier3.search(text)) return {*m->groups[0], 3};
  return {"", 0};
}

GradingResult grade_exact_match(std::string_view response, std::string_view ground_truth) {
  GradingResult r;
  const std::string pred = py_strip(valid_utf8(response));
  const std::string gold = py_strip(valid_utf8(ground_truth));
  r.unparsed = pred.empty() && !gold.empty();
  r.correct = !pred.empty() && pred == gold;
  r.confidence = r.correct ? 1.0 : 0.0;
  r.reasoning = "strict equality: stripped pred '" + pred + "' vs gold '" + gold + "'; match=" + py_bool(r.correct) +
                (r.unparsed ? " (empty response)" : "");
  r.extracted_answer = pred;
  r.ground_truth = gold;
  return r;
}

GradingResult grade_multiple_choice(std::string_view response_in, std::string_view ground_truth) {
  static const PyRegex kLetter("(?<!\\w)([A-D])(?!\\w)");
  const std::string response = valid_utf8(response_in);
  const std::string first = first_line_stripped(response);
  std::string pred;
  bool unparsed = true;
  if (first == "A" || first == "B" || first == "C" || first == "D") {
    pred = first;
    unparsed = false;
  } else {
    auto [letter, tier] = extract_choice_letter(response, "ABCD");
    if (!letter.empty() && tier == 1) {
      pred = letter;
      unparsed = false;
    } else if (!letter.empty() && tier == 2) {
      pred = letter;
    } else if (auto m = kLetter.search(first)) {
      pred = *m->groups[1];
    } else if (!letter.empty()) {
      pred = letter;
    } else {
      pred = first;
    }
  }
  GradingResult r;
  const std::string gold = py_strip(valid_utf8(ground_truth));
  r.correct = pred == gold && !pred.empty();
  r.unparsed = unparsed;
  r.confidence = r.correct ? 1.0 : 0.0;
  r.reasoning = "first-line-of-response extracted to '" + pred + "'" + (unparsed ? " (regex fallback)" : "") +
                "; ground_truth stripped to '" + gold + "'; match=" + py_bool(r.correct);
  r.extracted_answer = pred;
  r.ground_truth = gold;
  return r;
}

std::string gsm8k_normalizer(std::string_view text) {
  static const PyRegex kAnswer("#### (\\-?[0-9\\.\\,]+)");
  if (auto m = kAnswer.search(valid_utf8(text))) {
    std::string v = py_strip(*m->groups[1]);
    std::string out;
    for (char c : v)
      if (c != ',') out += c;
    return out;
  }
  return "[invalid]";
}

namespace {

constexpr std::string_view kInvalid = "[invalid]";

// (answer, used_fallback): the "#### n" marker, else the last number in the text.
std::pair<std::string, bool> gsm8k_prediction(std::string_view text) {
  static const PyRegex kNumber("-?[0-9][0-9,]*(?:\\.[0-9]+)?");
  std::string normalized = gsm8k_normalizer(text);
  if (normalized != kInvalid) return {normalized, false};
  auto all = kNumber.find_all(valid_utf8(text));
  if (all.empty()) return {std::string(kInvalid), true};
  std::string out;
  for (char c : *all.back().groups[0])
    if (c != ',') out += c;
  return {out, true};
}

// Python's float() on what the gsm8k patterns capture (digits, '.', '-'): nullopt where it
// raises ValueError ("1.2.3", ".", "-").
std::optional<double> py_float(const std::string& s) {
  if (s.empty()) return std::nullopt;
  bool digit = false;
  int dots = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9') digit = true;
    else if (c == '.') ++dots;
    else if (!(c == '-' && i == 0)) return std::nullopt;
  }
  if (!digit || dots > 1) return std::nullopt;
  return std::strtod(s.c_str(), nullptr);
}

}  // namespace

GradingResult grade_gsm8k(std::string_view response, std::string_view ground_truth) {
  const std::string gold = gsm8k_normalizer(py_strip(valid_utf8(ground_truth)));
  auto [pred, used_fallback] = gsm8k_prediction(py_strip(valid_utf8(response)));
  const bool parseable = pred != kInvalid;
  bool match = false;
  const auto g = py_float(gold), p = py_float(pred);
  if (g && p) match = *g == *p || std::fabs(*g - *p) <= 1e-6;  // math.isclose(abs_tol=1e-6)
  else match = gold == pred;
  GradingResult r;
  r.unparsed = used_fallback || !parseable;
  r.correct = parseable && gold != kInvalid && match;
  r.confidence = r.correct ? 1.0 : 0.0;
  const std::string note = !parseable      ? " (no number in response)"
                           : used_fallback ? " (no #### marker; used last-number fallback)"
                                           : "";
  r.reasoning =
      "gsm8k quasi-exact-match: gold '" + gold + "' vs pred '" + pred + "'; match=" + py_bool(r.correct) + note;
  r.extracted_answer = pred;
  r.ground_truth = gold;
  return r;
}

GradingResult grade_mmlu_pro(std::string_view response_in, std::string_view ground_truth) {
  const std::string response = valid_utf8(response_in);
  const std::string first = first_line_stripped(response);
  std::string pred;
  bool unparsed = false;
  if (first.size() == 1 && first[0] >= 'A' && first[0] <= 'J') {
    pred = first;
  } else {
    auto [letter, tier] = extract_choice_letter(response, "ABCDEFGHIJ");
    pred = letter;
    unparsed = tier != 1;
  }
  GradingResult r;
  const std::string gold = py_strip(valid_utf8(ground_truth));
  r.correct = pred == gold && !pred.empty();
  r.unparsed = unparsed;
  r.confidence = r.correct ? 1.0 : 0.0;
  r.reasoning = "extracted '" + pred + "'" + (unparsed ? " (fallback)" : "") + "; ground_truth '" + gold +
                "'; match=" + py_bool(r.correct);
  r.extracted_answer = pred;
  r.ground_truth = gold;
  return r;
}

GradingResult grade(std::string_view grader, std::string_view response, std::string_view ground_truth) {
  if (grader == "exact_match") return grade_exact_match(response, ground_truth);
  if (grader == "multiple_choice") return grade_multiple_choice(response, ground_truth);
  if (grader == "lighteval_gsm8k") return grade_gsm8k(response, ground_truth);
  if (grader == "mmlu_pro") return grade_mmlu_pro(response, ground_truth);
  if (grader == "math") return grade_math(response, ground_truth);
  throw std::invalid_argument("accuracy grader '" + std::string(grader) + "' is not supported");
}

}  // namespace aiperf::accuracy
