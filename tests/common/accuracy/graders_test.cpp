// The graders against AIPerf 0.13's own: tests/data/accuracy/grader_cases.json holds what the
// reference's grader classes return for each case (gen_grader_cases.py, run with its venv).
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accuracy/graders.h"
#include "accuracy/py_regex.h"

using namespace aiperf::accuracy;

namespace {
nlohmann::json cases() {
  std::ifstream in(std::string(AIPERF_TEST_DATA) + "/accuracy/grader_cases.json");
  return nlohmann::json::parse(in);
}
}  // namespace

TEST_CASE("accuracy graders give the reference's result for every recorded case") {
  int graded = 0, extracted = 0;
  for (const auto& c : cases()) {
    if (c.contains("grader")) {
      const auto r =
          grade(c["grader"].get<std::string>(), c["response"].get<std::string>(), c["gold"].get<std::string>());
      INFO(c.dump());
      CHECK(r.correct == c["correct"].get<bool>());
      CHECK(r.unparsed == c["unparsed"].get<bool>());
      CHECK(r.extracted_answer == c["extracted"].get<std::string>());
      CHECK(r.ground_truth == c["ground_truth"].get<std::string>());
      CHECK(r.reasoning == c["reasoning"].get<std::string>());
      CHECK(r.confidence == (r.correct ? 1.0 : 0.0));
      ++graded;
    } else {
      const auto [letter, tier] =
          extract_choice_letter(c["extract"].get<std::string>(), c["letters"].get<std::string>());
      INFO(c.dump());
      CHECK(letter == c["letter"].get<std::string>());
      CHECK(tier == c["tier"].get<int>());
      ++extracted;
    }
  }
  CHECK(graded == 29);
  CHECK(extracted == 10);
}

TEST_CASE("gsm8k normalizer takes the number after ####, commas removed") {
  CHECK(gsm8k_normalizer("so\n#### 1,234") == "1234");
  CHECK(gsm8k_normalizer("#### -7.5 dollars") == "-7.5");
  CHECK(gsm8k_normalizer("####5") == "[invalid]");
  CHECK(gsm8k_normalizer("") == "[invalid]");
}

TEST_CASE("py_strip removes what Python's str.strip removes") {
  CHECK(py_strip(" \t\n a b \r\n") == "a b");
  CHECK(py_strip("\xC2\xA0x\xE3\x80\x80") == "x");      // U+00A0, U+3000
  CHECK(py_strip("\xE2\x80\x8Bx") == "\xE2\x80\x8Bx");  // U+200B is not whitespace
  CHECK(py_strip("\x1c\x1fx\x1d") == "x");
  CHECK(py_strip("   ").empty());
}

TEST_CASE("valid_utf8 replaces invalid bytes as Python's errors=replace does") {
  CHECK(valid_utf8("a\xFF"
                   "b") ==
        "a\xEF\xBF\xBD"
        "b");
  CHECK(valid_utf8("\xC3\xA9") == "\xC3\xA9");
}

TEST_CASE("an unsupported grader is refused") {
  CHECK_THROWS_AS(grade("code_execution", "x", "y"), std::invalid_argument);
  CHECK_THROWS_AS(grade("lighteval_expr", "x", "y"), std::invalid_argument);
}
