// The accuracy benchmarks and graders AIPerf 0.13 registers (its plugins.yaml), with the
// metadata its options resolve against (default grader, n-shots, chain of thought, system
// prompt), and which of them this native aiperf runs. A refused one is refused by the CLI with
// the reason, before anything starts.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aiperf::accuracy {

struct BenchmarkInfo {
  std::string_view name;  // canonical, as AIPerf spells it ("math_500")
  std::string_view default_grader;
  int default_n_shots = 0;
  bool default_enable_cot = false;
  std::string_view default_system_prompt;  // "" = none
  // Empty: supported here. Otherwise why this native aiperf refuses it.
  std::string_view refusal;
};

struct GraderInfo {
  std::string_view name;
  std::string_view refusal;  // empty: supported here
};

// In AIPerf's registration order (the order its --help lists them).
const std::vector<BenchmarkInfo>& benchmarks();
const std::vector<GraderInfo>& graders();
const BenchmarkInfo* find_benchmark(std::string_view name);
const GraderInfo* find_grader(std::string_view name);
// Every benchmark name, sorted (AIPerf's "Available benchmarks: ..." list).
std::string sorted_benchmark_names();

// The grader a run uses: --accuracy-grader, else the benchmark's default.
std::string effective_grader(const std::string& benchmark, const std::optional<std::string>& grader);

}  // namespace aiperf::accuracy
