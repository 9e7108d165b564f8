// The math grader's answer normalisation (AIPerf 0.13 aiperf/accuracy/graders/_math_strip.py,
// itself the trt-llm recipe's strip_string): LaTeX spellings, units, currency, percentages,
// months, trailing ".000", "k = X", \sqrtN and \fracXY braces, "a/b" to \frac{a}{b}.
// Same output as the reference for the same text. Pure; thread-safe.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace aiperf::accuracy {

// strip_string(text). `text` must be valid UTF-8.
std::string math_strip_string(std::string_view text);

// CPython's sys.get_int_max_str_digits() default: int() of a str with more digits raises
// ValueError (so the reference's Fraction and a/b parsing give up on longer numbers).
inline constexpr size_t kPyMaxStrDigits = 4300;

// Python's int(s) on a str, as the canonical decimal it prints (str(int(s))): surrounding
// whitespace, an optional sign, ASCII digits with single underscores between them, at most
// kPyMaxStrDigits digits; nullopt where int() raises ValueError. (Python also takes other
// scripts' decimal digits; those give nullopt here.)
std::optional<std::string> py_int_text(std::string_view s);

// Python's s.replace(from, to) (every occurrence, left to right).
std::string py_replace(std::string_view s, std::string_view from, std::string_view to);

// Number of code points of UTF-8 text (Python's len()).
size_t py_len(std::string_view s);

}  // namespace aiperf::accuracy
