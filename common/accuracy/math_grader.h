// AIPerf 0.13's `math` grader (aiperf/accuracy/graders/math.py), the default of `aime`: the answer
// read from the last \boxed{...} (else the last "final answer / the answer is / answer:" phrase,
// else the last number; both flagged unparsed), both sides normalised by strip_string
// (math_strip.h), then compared as the reference does when sympy and latex2sympy2-extended are
// not installed (its stdlib fallback, the path an AIPerf installed without the [accuracy] extra
// takes): a light LaTeX normalisation, then exact rational equality where both sides parse as a
// Python Fraction ("0.5" == "1/2" == "5e-1"), else string equality of the normalised forms.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "accuracy/graders.h"

namespace aiperf::accuracy {

// (answer, unparsed): _extract_with_flag.
std::pair<std::string, bool> math_extract_answer(std::string_view response);
// The last \boxed{...}'s brace-balanced content; nullopt when none or unbalanced.
std::optional<std::string> math_last_boxed(std::string_view text);
// _stdlib_normalize.
std::string math_stdlib_normalize(std::string_view expr);

// A Python Fraction(s) as written: sign * digits * 10^exp10 / denom (digits and denom decimal
// strings, denom not zero). nullopt where Fraction(s) raises ValueError or ZeroDivisionError.
// Python's decimal digits of other scripts are not read (nullopt).
struct PyFraction {
  bool negative = false;
  std::string digits;  // numerator digits, fraction part included
  long long exp10 = 0;
  std::string denom = "1";
};
std::optional<PyFraction> py_fraction(std::string_view s);
// Fraction(a) == Fraction(b), exactly (arbitrary sizes).
bool fraction_equal(const PyFraction& a, const PyFraction& b);

GradingResult grade_math(std::string_view response, std::string_view ground_truth);

}  // namespace aiperf::accuracy
