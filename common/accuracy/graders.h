// The deterministic graders of AIPerf 0.13 (aiperf/accuracy/graders/): exact_match,
// multiple_choice, lighteval_gsm8k, mmlu_pro and math (math_grader.h), with the same answer extraction, the same
// correct/unparsed decisions and the same explanation strings. Pure functions of the response
// text and the ground truth; thread-safe.
#pragma once
#include <string>
#include <string_view>
#include <utility>

namespace aiperf::accuracy {

struct GradingResult {
  bool correct = false;
  bool unparsed = false;  // the expected answer format was not followed (a fallback was used)
  double confidence = 0.0;
  std::string reasoning;         // the grader's explanation
  std::string extracted_answer;  // what was read from the response
  std::string ground_truth;      // the gold answer as compared
};

// The shared multiple-choice cascade (_choice_extract.py): (letter, tier) with tier 1 = the
// last "answer is (X)", 2 = "...Answer: X", 3 = the last lone in-range letter, 0 = none ("").
std::pair<std::string, int> extract_choice_letter(std::string_view text, std::string_view letters = "ABCDEFGHIJ");

GradingResult grade_exact_match(std::string_view response, std::string_view ground_truth);
GradingResult grade_multiple_choice(std::string_view response, std::string_view ground_truth);
GradingResult grade_gsm8k(std::string_view response, std::string_view ground_truth);
GradingResult grade_mmlu_pro(std::string_view response, std::string_view ground_truth);

// lighteval's gsm8k_normalizer: the number after "#### " with commas removed, or "[invalid]".
std::string gsm8k_normalizer(std::string_view text);

// Grades with the grader named `grader` (one of the supported names in benchmarks.h); throws
// std::invalid_argument for any other.
GradingResult grade(std::string_view grader, std::string_view response, std::string_view ground_truth);

}  // namespace aiperf::accuracy
