// Accuracy section of RunConfig (AIPerf 0.13's "Accuracy" options, --accuracy-*): a benchmark's
// problems are the dataset, each response is graded, and the accuracy files are written beside
// the performance ones (docs/accuracy.md). The CLI validates the options and resolves where the
// benchmark's data is read from (the environment is read there, not in the services).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "config/json_optional.h"

namespace aiperf::config {

struct AccuracyConfig {
  std::optional<std::string> benchmark;      // --accuracy-benchmark (canonical: "mmlu", "gsm8k", ...)
  std::vector<std::string> tasks;            // --accuracy-tasks; empty = every task
  std::optional<int> n_shots;                // --accuracy-n-shots; unset = the benchmark's default
  std::optional<bool> enable_cot;            // --accuracy-[no-]enable-cot; unset = the benchmark's default
  std::optional<std::string> grader;         // --accuracy-grader; unset = the benchmark's default
  std::optional<std::string> system_prompt;  // --accuracy-system-prompt; unset = the benchmark's default
  bool verbose = false;                      // --accuracy-verbose: per-problem grading lines in the log
  // Resolved by the CLI: where HuggingFace datasets are looked up. `local_root` is the working
  // directory of the command (a directory named like the repo there wins, as `datasets` does),
  // `hub_cache` the huggingface_hub cache (HF_HUB_CACHE / HF_HOME rules).
  std::string local_root;
  std::string hub_cache;

  bool enabled() const { return benchmark.has_value(); }
};

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(AccuracyConfig, benchmark, tasks, n_shots, enable_cot, grader,
                                                system_prompt, verbose, local_root, hub_cache)

}  // namespace aiperf::config
