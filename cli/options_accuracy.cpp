// Accuracy group (AIPerf 0.13): --accuracy-benchmark runs a benchmark's problems as the dataset
// and grades every response (common/accuracy, docs/accuracy.md). Registration, AIPerf's checks
// with its messages, the refusals of what this native aiperf does not run, and a pre-flight
// read of the benchmark's data so a missing dataset fails before anything starts.
#include <filesystem>

#include "accuracy/benchmarks.h"
#include "accuracy/problems.h"
#include "environment.h"
#include "log/log.h"
#include "options.h"

namespace aiperf::cli {

namespace {

std::vector<std::string> names_of(bool benchmarks) {
  std::vector<std::string> out;
  if (benchmarks)
    for (const auto& b : accuracy::benchmarks()) out.emplace_back(b.name);
  else
    for (const auto& g : accuracy::graders()) out.emplace_back(g.name);
  return out;
}

std::string supported_list(bool benchmarks) {
  std::string out;
  auto add = [&](std::string_view n) { out += (out.empty() ? "" : ", ") + std::string(n); };
  if (benchmarks) {
    for (const auto& b : accuracy::benchmarks())
      if (b.refusal.empty()) add(b.name);
  } else {
    for (const auto& g : accuracy::graders())
      if (g.refusal.empty()) add(g.name);
  }
  return out;
}

// "a,b" or repeated flags (AIPerf's parse_str_or_list): items split on commas, trimmed.
void add_tasks(std::vector<std::string>& tasks, const std::string& value) {
  size_t start = 0;
  while (start <= value.size()) {
    size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    std::string item = value.substr(start, comma - start);
    const size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) tasks.push_back(item.substr(b, e - b + 1));
    start = comma + 1;
  }
}

bool temperature_zero(const nlohmann::json& extra) {
  if (!extra.is_object() || !extra.contains("temperature")) return false;
  const auto& t = extra["temperature"];
  return t.is_number() && t.get<double>() == 0.0;
}

}  // namespace

void add_accuracy_options(CLI::App& app, ProfileOptions& o) {
  auto& a = o.config.accuracy;
  auto& raw = o.accuracy;
  const char* g = "Accuracy";
  app.add_option_function<std::string>(
         "--accuracy-benchmark", [&a](const std::string& v) { a.benchmark = v; },
         "Accuracy benchmark to run (e.g., mmlu, gsm8k); its problems become the dataset and every response is "
         "graded (docs/accuracy.md)")
      ->check(choice(names_of(true)))
      ->group(g);
  app.add_option_function<std::vector<std::string>>(
         "--accuracy-tasks",
         [&raw, &a](const std::vector<std::string>& v) {
           raw.tasks_given = true;
           for (const auto& item : v) add_tasks(a.tasks, item);
         },
         "Tasks or subtasks within the benchmark (e.g. MMLU subjects), comma-separated or repeated; default all")
      ->group(g);
  add_optional(app, "--accuracy-n-shots", a.n_shots,
               "Few-shot examples in the prompt (0-32); default: the benchmark's (MMLU 5)")
      ->check(CLI::Range(0, 32))
      ->group(g);
  raw.enable_cot = app.add_flag("--accuracy-enable-cot,!--accuracy-no-enable-cot", raw.enable_cot_value,
                                "Chain-of-thought prompting; default: the benchmark's")
                       ->group(g);
  app.add_option_function<std::string>(
         "--accuracy-grader", [&a](const std::string& v) { a.grader = v; },
         "Grader overriding the benchmark's default (exact_match, multiple_choice, lighteval_gsm8k, mmlu_pro, math; "
         "the lighteval_* graders and code_execution are refused, docs/accuracy.md)")
      ->check(choice(names_of(false)))
      ->group(g);
  add_optional(app, "--accuracy-system-prompt", a.system_prompt,
               "System prompt for the benchmark's problems, overriding the benchmark's own")
      ->group(g);
  raw.verbose = app.add_flag("--accuracy-verbose", a.verbose, "Log every problem's grading (info level)")->group(g);
}

void finalize_accuracy_options(ProfileOptions& o) {
  auto& a = o.config.accuracy;
  const auto& raw = o.accuracy;
  if (raw.enable_cot && raw.enable_cot->count() > 0) a.enable_cot = raw.enable_cot_value;
  if (!a.enabled()) {
    // AIPerf's AccuracyConfig check: an accuracy option without a benchmark would do nothing.
    std::vector<std::string> set;  // sorted by field name, as AIPerf lists them
    if (a.enable_cot) set.push_back("enable_cot");
    if (a.grader) set.push_back("grader");
    if (a.n_shots) set.push_back("n_shots");
    if (a.system_prompt) set.push_back("system_prompt");
    if (raw.tasks_given) set.push_back("tasks");
    if (raw.verbose && raw.verbose->count() > 0) set.push_back("verbose");
    if (set.empty()) return;
    std::string flags;
    for (auto name : set) {
      for (char& c : name) c = c == '_' ? '-' : c;
      flags += (flags.empty() ? "" : ", ") + ("--accuracy-" + name);
    }
    throw OptionError("Accuracy options " + flags +
                      " were set but --accuracy-benchmark is not. Accuracy mode requires --accuracy-benchmark to "
                      "select a benchmark; otherwise these flags are silently ignored. Available benchmarks: " +
                      accuracy::sorted_benchmark_names() + ".");
  }
  a.benchmark = enum_spelling(*a.benchmark);
  if (a.grader) a.grader = enum_spelling(*a.grader);
  const accuracy::BenchmarkInfo* b = accuracy::find_benchmark(*a.benchmark);
  if (!b->refusal.empty())
    throw OptionError("--accuracy-benchmark " + *a.benchmark + " " + std::string(b->refusal) +
                      ". Supported here: " + supported_list(true) + " (docs/accuracy.md).");
  const std::string grader = accuracy::effective_grader(*a.benchmark, a.grader);
  if (const accuracy::GraderInfo* gi = accuracy::find_grader(grader); gi && !gi->refusal.empty())
    throw OptionError("--accuracy-grader " + grader + (a.grader ? "" : " (the default of " + *a.benchmark + ")") + " " +
                      std::string(gi->refusal) + ". Supported graders here: " + supported_list(false) +
                      " (docs/accuracy.md).");
  // AIPerf's dataset manager: problems map to responses in order.
  const auto& in = o.config.input;
  if (in.fixed_schedule)
    throw OptionError(
        "Accuracy mode requires sequential request order; fixed-schedule timing is not supported in accuracy mode.");
  if (!in.dataset_sampling_strategy.empty() && in.dataset_sampling_strategy != "sequential")
    throw OptionError("Accuracy mode requires sequential request order; '" + in.dataset_sampling_strategy +
                      "' sampling is not supported. Set the dataset's sampling strategy to 'sequential'.");
  a.local_root = std::filesystem::current_path().string();
  a.hub_cache = hub_env().hub_cache;
  // Pre-flight: the benchmark's data must be readable now (offline), not once services run.
  std::vector<accuracy::Problem> problems;
  try {
    problems = accuracy::build_problems(a);
  } catch (const accuracy::DatasetError& e) {
    // A dry run reads nothing it would have to fetch (as for a Hub tokenizer): noted instead.
    if (o.dry_run) {
      o.dry_run_notes.push_back("--accuracy-benchmark " + *a.benchmark + ": " + e.what() +
                                " (a run needs it there; not checked)");
      return;
    }
    throw OptionError("--accuracy-benchmark " + *a.benchmark + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw OptionError(e.what());
  }
  if (problems.empty()) {
    std::string tasks = "None";
    if (!a.tasks.empty()) {
      tasks = "[";
      for (size_t i = 0; i < a.tasks.size(); ++i) tasks += (i ? ", '" : "'") + a.tasks[i] + "'";
      tasks += "]";
    }
    throw OptionError(
        "Benchmark '" + *a.benchmark + "' returned 0 problems (tasks=" + tasks +
        ", n_shots=" + (a.n_shots ? std::to_string(*a.n_shots) : "None") +
        "). Check that --accuracy-tasks names a valid subtask (see docs/accuracy/accuracy-benchmarking.md) "
        "or omit the flag to evaluate all tasks.");
  }
  if (!temperature_zero(in.extra_inputs))
    AIPERF_LOG(kWarning) << "Running accuracy benchmark without temperature=0 in --extra-inputs. Most LLM servers "
                            "default to temperature=1.0, introducing random sampling and run-to-run variance. For "
                            "reproducible results matching lighteval, add: --extra-inputs '{\"temperature\": 0}'";
  // AIPerf's math grader compares symbolically only with sympy and latex2sympy2-extended
  // installed; this one is its stdlib comparison (the one AIPerf warns about without them).
  if (grader == "math")
    AIPERF_LOG(kWarning) << "The math grader runs AIPerf's stdlib fallback comparison (as AIPerf without "
                            "sympy/latex2sympy2-extended): symbolic equivalence (e.g. \\sqrt{2} vs 2^{1/2}) and "
                            "LaTeX-form normalization beyond its string rules grade as incorrect (docs/accuracy.md).";
}

}  // namespace aiperf::cli
