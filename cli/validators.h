// Value checks for numeric options whose messages state the rule and the value as given
// ("--osl: must be a number > 0, got '-5'"); CLI11's own print the whole double range.
#pragma once
#include <cmath>
#include <cstdlib>
#include <string>

#include <CLI/CLI.hpp>

namespace aiperf::cli {

// True when the user gave `opt` on the command line (a null option was never added).
inline bool given(const CLI::Option* opt) { return opt && opt->count() > 0; }

// A validator for numbers from lo to hi (each end open when said), described as `rule`.
inline CLI::Validator number_check(double lo, bool lo_open, double hi, const std::string& rule, bool hi_open = false) {
  return CLI::Validator(
      [lo, lo_open, hi, hi_open, rule](std::string& value) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(value.c_str(), &end);
        const bool parsed = !value.empty() && end && *end == '\0' && std::isfinite(v);
        if (parsed && (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi)) return {};
        return "must be " + rule + ", got '" + value + "'";
      },
      rule);
}

inline const CLI::Validator kPositive = number_check(0, true, HUGE_VAL, "a number > 0");
inline const CLI::Validator kNonNegative = number_check(0, false, HUGE_VAL, "a number >= 0");
inline const CLI::Validator kPercent = number_check(0, false, 100, "a percentage from 0 to 100");
inline const CLI::Validator kFraction = number_check(0, true, 1, "a number in (0, 1)", /*hi_open=*/true);

// "Error: <what CLI11 found>" for every parse error, as our own checks print them; CLI11's
// "Could not convert: --opt = x" becomes "--opt: invalid value 'x'".
inline std::string failure_message(const CLI::App* app, const CLI::Error& e) {
  std::string what = e.what();
  const std::string prefix = "Could not convert: ";
  if (what.rfind(prefix, 0) == 0) {
    const size_t eq = what.find(" = ", prefix.size());
    if (eq != std::string::npos)
      what = what.substr(prefix.size(), eq - prefix.size()) + ": invalid value '" + what.substr(eq + 3) + "'";
  }
  std::string out = "Error: " + what + "\n";
  if (app && !app->get_help_ptr()->get_name().empty()) out += "Run with " + app->get_help_ptr()->get_name() + " for more information.\n";
  return out;
}

}  // namespace aiperf::cli
