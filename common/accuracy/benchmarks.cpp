#include "accuracy/benchmarks.h"

#include <algorithm>

namespace aiperf::accuracy {

namespace {
constexpr std::string_view kNeedsLighteval =
    "needs lighteval's sympy/latex2sympy answer extraction, which this native aiperf does not have";
}  // namespace

const std::vector<BenchmarkInfo>& benchmarks() {
  static const std::vector<BenchmarkInfo> kAll = {
      {"mmlu", "multiple_choice", 5, false, "", ""},
      {"mmlu_pro", "mmlu_pro", 5, true, "", ""},
      {"aime", "math", 8, true, "Please reason step by step, and put your final answer within \\boxed{}.",
       "is not implemented in this native aiperf yet"},
      {"hellaswag", "exact_match", 10, false, "",
       "builds its prompts with DeepEval's templates (the [accuracy] extra), not implemented in this native aiperf"},
      {"bigbench", "exact_match", 3, true, "",
       "builds its prompts from DeepEval's bundled CoT prompt files (the [accuracy] extra), not implemented in this "
       "native aiperf"},
      {"aime24", "lighteval_expr", 0, false, "", "is not implemented in this native aiperf yet"},
      {"aime25", "lighteval_expr", 0, false, "", "is not implemented in this native aiperf yet"},
      {"math_500", "lighteval_latex", 0, false, "", "is not implemented in this native aiperf yet"},
      {"gsm8k", "lighteval_gsm8k", 0, false, "", ""},
      {"gpqa_diamond", "lighteval_gpqa", 0, false, "", "is not implemented in this native aiperf yet"},
      {"lcb_codegeneration", "code_execution", 0, false, "",
       "is graded by running the model's code (code_execution), which this native aiperf refuses"},
  };
  return kAll;
}

const std::vector<GraderInfo>& graders() {
  static const std::vector<GraderInfo> kAll = {
      {"exact_match", ""},
      {"math", "is not implemented in this native aiperf yet"},
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
