// The problems of an accuracy benchmark as AIPerf 0.13 builds them (aiperf/accuracy/benchmarks/
// and dataset/loader/accuracy_dataset_loader.py): the prompt for completions, the chat messages,
// the gold answer, the task, the token budget and any stop sequence, in the reference's order.
// Implemented: mmlu (lighteval's prompt, balanced few-shot sampling with seed 0), mmlu_pro
// (TIGER-AI-Lab's evaluate_from_api.py prompt, validation-split CoT shots) and gsm8k.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "accuracy/hf_dataset.h"
#include "config/accuracy_config.h"

namespace aiperf::accuracy {

struct Problem {
  std::string prompt;               // the flat prompt (completions), system prompt included
  nlohmann::ordered_json messages;  // chat messages, system prompt included
  std::string ground_truth;
  std::string task;
  int generation_size = 100;      // max tokens
  std::vector<std::string> stop;  // sent as "stop" when not empty
};

// One benchmark run's settings with the defaults resolved.
struct ProblemOptions {
  std::string benchmark;
  std::vector<std::string> tasks;  // empty = all
  int n_shots = 0;
  bool enable_cot = false;
  std::string system_prompt;  // "" = none
};
ProblemOptions resolve_options(const config::AccuracyConfig& c);

// Every problem, in the reference's order. Throws DatasetError when the data is missing or
// malformed, std::invalid_argument for an unknown task (AIPerf's message).
std::vector<Problem> build_problems(const ProblemOptions& options, const DatasetLocation& where);
inline std::vector<Problem> build_problems(const config::AccuracyConfig& c) {
  return build_problems(resolve_options(c), DatasetLocation{c.local_root, c.hub_cache});
}

// MMLU's 57 subjects (lighteval/mmlu configs), in the reference's order.
const std::vector<std::string>& mmlu_subjects();
// lighteval's balanced few-shot choice over `source` rows (FewShotSampler, variance seed 0).
std::vector<size_t> mmlu_balanced_shots(const std::vector<nlohmann::json>& source, int n_shots);

// The conversation id of problem `index` in a run, which the dataset service and the record
// processors compute alike without talking: with --random-seed, AIPerf's "session_000000"
// counter ids; without, a UUID-shaped id derived from the run's benchmark id (AIPerf draws a
// random UUID there).
std::string problem_conversation_id(const std::string& benchmark_id, std::optional<uint64_t> random_seed, size_t index);

}  // namespace aiperf::accuracy
