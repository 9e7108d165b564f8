// Accuracy graders and data files: model output and dataset bytes are outside input. The bytes
// up to the first NUL are a response, the rest a gold answer: every supported grader grades
// them, strip_string and Fraction parsing run on both; the whole input is also read as a CSV
// data file. The documented refusal is DatasetError (CSV); anything else escaping, a crash or
// an out-of-bounds read is a finding. A grade must dump as JSON (its strings valid UTF-8).
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "accuracy/csv_rows.h"
#include "accuracy/graders.h"
#include "accuracy/hf_dataset.h"
#include "accuracy/math_grader.h"
#include "accuracy/math_strip.h"
#include "accuracy/py_regex.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  const size_t nul = bytes.find('\0');
  const std::string response = bytes.substr(0, nul);
  const std::string gold = nul == std::string::npos ? "" : bytes.substr(nul + 1);
  using namespace aiperf::accuracy;
  for (const char* grader : {"exact_match", "multiple_choice", "lighteval_gsm8k", "mmlu_pro", "math"}) {
    const GradingResult r = grade(grader, response, gold);
    (void)nlohmann::json({r.reasoning, r.extracted_answer, r.ground_truth}).dump();
  }
  const std::string text = valid_utf8(response);
  (void)math_strip_string(text);
  if (auto f = py_fraction(text)) (void)fraction_equal(*f, *f);
  try {
    for (const auto& row : parse_csv_rows(bytes, "f.csv"))
      (void)row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  } catch (const DatasetError&) {}
  return 0;
}
