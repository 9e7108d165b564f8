#include "accuracy/benchmarks.h"

#include <algorithm>

namespace aiperf::accuracy {

namespace {
constexpr std::string_view kNeedsLighteval =
    "needs lighteval's extractive-match metric (sympy and latex2sympy2 answer parsing), which this native aiperf "
    "does not have; AIPerf 0.13 refuses it too unless lighteval (its [accuracy] extra) is installed (\"lighteval is "
    "not installed; AIME24/AIME25/MATH-500/GPQA-Diamond graders cannot run\"). Grade with another --accuracy-grader "
    "(math for aime24, aime25 and math_500; multiple_choice for gpqa_diamond)";
constexpr std::string_view kNeedsDeepEval =
    " (its [accuracy] extra); AIPerf 0.13 refuses it too without deepeval installed (\"deepeval is not installed; "
    "...\"), and this native aiperf does not reproduce them";
}  // namespace

const std::vector<BenchmarkInfo>& benchmarks() {
  static const std::string kHellaswag =
      "builds its prompts with DeepEval's HellaSwag template" + std::string(kNeedsDeepEval);
  static const std::string kBigbench =
      "builds its prompts from DeepEval's bundled BIG-Bench-Hard prompt files" + std::string(kNeedsDeepEval);
  static const std::vector<BenchmarkInfo> kAll = {
      {"mmlu", "multiple_choice", 5, false, "", ""},
      {"mmlu_pro", "mmlu_pro", 5, true, "", ""},
      {"aime", "math", 8, true, "Please reason step by step, and put your final answer within \\boxed{}.", ""},
      {"hellaswag", "exact_match", 10, false, "", kHellaswag},
      {"bigbench", "exact_match", 3, true, "", kBigbench},
      {"aime24", "lighteval_expr", 0, false, "", ""},
      {"aime25", "lighteval_expr", 0, false, "", ""},
      {"math_500", "lighteval_latex", 0, false, "", ""},
      {"gsm8k", "lighteval_gsm8k", 0, false, "", ""},
      {"gpqa_diamond", "lighteval_gpqa", 0, false, "", ""},
      {"lcb_codegeneration", "code_execution", 0, false, "",
       "is graded by running the model's code (code_execution), which this native aiperf refuses"},
  };
  return kAll;
}

const std::vector<GraderInfo>& graders() {
  static const std::vector<GraderInfo> kAll = {
      {"exact_match", ""},
      {"math", ""},
      {"multiple_choice", ""},
      {"code_execution",
       "executes the model's code; this native aiperf has no sandbox for it and refuses to run untrusted code"},
      {"lighteval_expr", kNeedsLighteval},
      {"lighteval_latex", kNeedsLighteval},
      {"lighteval_gpqa", kNeedsLighteval},
      {"lighteval_gsm8k", ""},
      {"mmlu_pro", ""},
  };
  return kAll;
}

const BenchmarkInfo* find_benchmark(std::string_view name) {
  for (const auto& b : benchmarks())
    if (b.name == name) return &b;
  return nullptr;
}

const GraderInfo* find_grader(std::string_view name) {
  for (const auto& g : graders())
    if (g.name == name) return &g;
  return nullptr;
}

std::string sorted_benchmark_names() {
  std::vector<std::string> names;
  for (const auto& b : benchmarks()) names.emplace_back(b.name);
  std::sort(names.begin(), names.end());
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

std::string effective_grader(const std::string& benchmark, const std::optional<std::string>& grader) {
  if (grader) return *grader;
  const BenchmarkInfo* b = find_benchmark(benchmark);
  return b ? std::string(b->default_grader) : "multiple_choice";
}

}  // namespace aiperf::accuracy
