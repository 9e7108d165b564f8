// The math grader against AIPerf 0.13's own (its stdlib path, the one its venv without sympy
// runs): tests/data/accuracy/math_grader_cases.json holds what the reference's MathGrader,
// strip_string, _stdlib_normalize and fractions.Fraction return for a table of answer forms
// (gen_math_cases.py, run with the reference's venv).
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accuracy/graders.h"
#include "accuracy/math_grader.h"
#include "accuracy/math_strip.h"

using namespace aiperf::accuracy;

namespace {
nlohmann::json cases(const char* section) {
  std::ifstream in(std::string(AIPERF_TEST_DATA) + "/accuracy/math_grader_cases.json");
  return nlohmann::json::parse(in).at(section);
}
}  // namespace

TEST_CASE("math grader: the reference's grade for every recorded answer form") {
  int n = 0;
  for (const auto& c : cases("grade")) {
    INFO(c.dump());
    const auto r = grade("math", c["response"].get<std::string>(), c["gold"].get<std::string>());
    CHECK(r.correct == c["correct"].get<bool>());
    CHECK(r.unparsed == c["unparsed"].get<bool>());
    CHECK(r.extracted_answer == c["extracted"].get<std::string>());
    CHECK(r.ground_truth == c["ground_truth"].get<std::string>());
    CHECK(r.reasoning == c["reasoning"].get<std::string>());
    CHECK(r.confidence == (r.correct ? 1.0 : 0.0));
    ++n;
  }
  CHECK(n == 85);
}

TEST_CASE("math grader: strip_string and the stdlib normalisation as the reference's") {
  int n = 0;
  for (const auto& c : cases("strip")) {
    INFO(c.dump());
    CHECK(math_strip_string(c["in"].get<std::string>()) == c["out"].get<std::string>());
    ++n;
  }
  for (const auto& c : cases("normalize")) {
    INFO(c.dump());
    CHECK(math_stdlib_normalize(c["in"].get<std::string>()) == c["out"].get<std::string>());
    ++n;
  }
  CHECK(n == 52);
}

TEST_CASE("math grader: Python's Fraction() parsing and exact equality") {
  int n = 0;
  for (const auto& c : cases("fraction")) {
    INFO(c.dump());
    const auto f = py_fraction(c["in"].get<std::string>());
    if (c["value"].is_null()) {
      CHECK_FALSE(f);
    } else {
      REQUIRE(f);
      const auto want = py_fraction(c["value"].get<std::string>());
      REQUIRE(want);
      CHECK(fraction_equal(*f, *want));
    }
    ++n;
  }
  CHECK(n == 26);
  // Sizes beyond 64 bits, exponents moved into digits, signs and zeros.
  CHECK(fraction_equal(*py_fraction("12345678901234567890123/3"), *py_fraction("4115226300411522630041")));
  CHECK_FALSE(fraction_equal(*py_fraction("12345678901234567890123/3"), *py_fraction("4115226300411522630042")));
  CHECK(fraction_equal(*py_fraction("1500"), *py_fraction("1.5e3")));
  CHECK(fraction_equal(*py_fraction("-0"), *py_fraction("0.000")));
  CHECK_FALSE(fraction_equal(*py_fraction("-2"), *py_fraction("2")));
  CHECK(fraction_equal(*py_fraction("-2/4"), *py_fraction("-0.5")));
  CHECK_FALSE(fraction_equal(*py_fraction("1/3"), *py_fraction("0.3333333333")));
}

TEST_CASE("math grader: Python's int() text for a/b") {
  CHECK(py_int_text("007") == "7");
  CHECK(py_int_text("-0") == "0");
  CHECK(py_int_text("+12") == "12");
  CHECK(py_int_text("1_000") == "1000");
  CHECK(py_int_text("\t5 ") == "5");
  CHECK_FALSE(py_int_text("1__0"));
  CHECK_FALSE(py_int_text("_1"));
  CHECK_FALSE(py_int_text("1_"));
  CHECK_FALSE(py_int_text(""));
  CHECK_FALSE(py_int_text("- 5"));
  CHECK(py_int_text(std::string(4300, '7')) == std::string(4300, '7'));  // CPython's int() digit limit
  CHECK_FALSE(py_int_text(std::string(4301, '7')));
  CHECK_FALSE(py_int_text(std::string(4301, '0')));
  CHECK(py_len("π r") == 3);
}
