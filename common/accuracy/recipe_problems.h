// The problems of the benchmarks AIPerf 0.13 aligned with the trt-llm benchmark recipe
// (aiperf/accuracy/benchmarks/{aime,aime24,aime25,math_500,gpqa_diamond}.py), as it builds them:
//   aime          Maxwell-Jia/AIME_2024 (train): the recipe's AIMETemplate, the first n (<= 8) rows
//                 as shots, CoT or "No explanation needed" trailer; one user message.
//   aime24/aime25 HuggingFaceH4/aime_2024, yentinglin/aime_2025 (train): the bare problem.
//   math_500      HuggingFaceH4/MATH-500 (test): the bare problem; the gold is the full solution,
//                 the task the row's subject.
//   gpqa_diamond  Idavidrein/gpqa (gpqa_diamond, train): the simple-evals template, the four
//                 answers shuffled by random.Random(sha256(question) mod 2**32); the gold a letter.
// Each asks for 32768 tokens and has no stop sequence. n-shots, CoT and tasks are ignored where
// the reference ignores them.
#pragma once
#include <vector>

#include "accuracy/problems.h"

namespace aiperf::accuracy {

// Throws std::invalid_argument for more than 8 AIME shots (AIPerf's message), DatasetError for
// missing or malformed data.
std::vector<Problem> aime_problems(const ProblemOptions& o, const DatasetLocation& where);
std::vector<Problem> aime_year_problems(const std::string& benchmark, const DatasetLocation& where);
std::vector<Problem> math500_problems(const DatasetLocation& where);
std::vector<Problem> gpqa_diamond_problems(const DatasetLocation& where);

// The permutation gpqa_diamond applies to [correct, incorrect 1..3] for a question.
std::vector<int> gpqa_choice_order(const std::string& question);

}  // namespace aiperf::accuracy
