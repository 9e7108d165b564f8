// End-to-end: --accuracy-benchmark against the mock's scripted answers (--reply-rules), with the
// fixture datasets of tests/data/accuracy (a HuggingFace Hub cache holding openai/gsm8k and
// lighteval/mmlu as Parquet): the graded records, accuracy_results.csv, the accuracy.* results
// and the console table, with exact numbers; and the options' refusals (exit 2, nothing written).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::test::ScopedCwd;
using aiperf::test::ScopedEnv;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/accuracy";
const std::string kHub = kData + "/hub";
const std::string kSnapshot = "/snapshots/0123456789abcdef0123456789abcdef01234567";

// Runs in `cwd` (AIPerf reads ./<org>/<name> before the cache).
aiperf::test::ProfileRun profile(const std::string& tmp, std::vector<std::string> args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120);
}

}  // namespace

TEST_CASE("accuracy mmlu over chat: 5-shot prompts, multiple-choice grading, exact accuracy files", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  ScopedEnv hub("HF_HUB_CACHE", kHub);
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(tmp, {"--url", mock.url(), "--endpoint-type", "chat", "--streaming", "--request-count", "6",
                                 "--accuracy-benchmark", "mmlu", "--accuracy-tasks", "abstract_algebra,anatomy",
                                 "--extra-inputs", "temperature:0"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\n"
        "OVERALL,4,6,2,0.6667\r\n"
        "abstract_algebra,2,3,0,0.6667\r\n"
        "anatomy,2,3,2,0.6667\r\n");
  const auto graded = run.lines("accuracy_export.jsonl");
  REQUIRE(graded.size() == 6);
  const std::vector<std::tuple<std::string, std::string, bool, bool>> want = {
      {"B", "B", true, false}, {"A", "C", false, false},      {"D", "D", true, false},
      {"A", "A", true, false}, {"C", "no idea", false, true}, {"C", "C", true, true}};
  for (size_t i = 0; i < graded.size(); ++i) {
    INFO(graded[i].dump());
    CHECK(graded[i]["session_num"] == i);
    CHECK(graded[i]["expected"] == std::get<0>(want[i]));
    CHECK(graded[i]["actual"] == std::get<1>(want[i]));
    CHECK(graded[i]["passed"] == std::get<2>(want[i]));
    CHECK(graded[i]["unparsed"] == std::get<3>(want[i]));
    CHECK(graded[i]["grader_name"] == "multiple_choice");
    CHECK(graded[i]["benchmark_phase"] == "profiling");
    CHECK(graded[i]["task"] == (i < 3 ? "abstract_algebra" : "anatomy"));
  }
  CHECK(graded[3]["model_output"] == "A\nbecause");
  const json summary = run.summary();
  CHECK(summary["accuracy.overall"] == json{{"unit", "ratio"}, {"count", 6}, {"sum", 4}});
  CHECK(summary["accuracy.task.anatomy"] == json{{"unit", "ratio"}, {"count", 3}, {"sum", 2}});
  CHECK(summary["accuracy.unparsed"] == json{{"unit", "ratio"}, {"count", 6}, {"sum", 2}});
  CHECK(summary["accuracy.unparsed.task.abstract_algebra"] == json{{"unit", "ratio"}, {"count", 3}, {"sum", 0}});
  const std::string csv = read_file(run.dir + "/profile_export_aiperf.csv");
  CHECK(csv.find("Accuracy (Overall) (ratio),\r\n") != std::string::npos);
  CHECK(run.out.find("| OVERALL                        |       4 |     6 |        2 |   66.67% |") !=
        std::string::npos);
  CHECK(run.out.find("accuracy_csv: " + run.dir + "/accuracy_results.csv") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir + "/accuracy_fragments"));
  // The requests: lighteval's chat turns (5 shots as user/assistant pairs), the budget and the stop.
  const json first = run.inputs()["data"][0]["payloads"][0];
  REQUIRE(first["messages"].size() == 11);
  CHECK(first["messages"][1] == json{{"role", "assistant"}, {"content", " D"}});
  CHECK(first["max_completion_tokens"] == 5);
  CHECK(first["stop"] == json::array({"\n"}));
  const std::string last = first["messages"][10]["content"];
  CHECK(last.rfind("Question: QAA0 question about abstract algebra?\nA. QAA0 choice A", 0) == 0);
}

TEST_CASE("accuracy gsm8k over completions from ./openai/gsm8k, wrapping over the problems", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  fs::create_directories(tmp + "/work/openai");
  fs::create_directory_symlink(kHub + "/datasets--openai--gsm8k" + kSnapshot, tmp + "/work/openai/gsm8k");
  ScopedEnv hub("HF_HUB_CACHE", tmp + "/empty-hub");  // only the local directory has it
  ScopedCwd cwd(tmp + "/work");
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(tmp, {"--url", mock.url(), "--endpoint-type", "completions", "--request-count", "8",
                                 "--accuracy-benchmark", "gsm8k", "--accuracy-system-prompt", "Be brief."});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\nOVERALL,4,8,4,0.5000\r\ngsm8k,4,8,4,0.5000\r\n");
  const auto graded = run.lines("accuracy_export.jsonl");
  REQUIRE(graded.size() == 8);
  CHECK(graded[1]["explanation"] ==
        "gsm8k quasi-exact-match: gold '36' vs pred '36'; match=True (no #### marker; used last-number fallback)");
  CHECK(graded[6]["actual"] == "700");
  CHECK(graded[7]["actual"] == "[invalid]");
  CHECK(graded[5]["conversation_id"] == graded[1]["conversation_id"]);
  const json first = run.inputs()["data"][0]["payloads"][0];
  CHECK(first["prompt"] ==
        "Be brief.\n\nQuestion: Tom has 3 apples and buys 2 more. How many apples does he have?\nAnswer:");
  CHECK(first["max_tokens"] == 256);
  CHECK_FALSE(first.contains("stop"));
  CHECK(run.err.find("without temperature=0 in --extra-inputs") != std::string::npos);
}

TEST_CASE("accuracy mmlu_pro over chat: 5 CoT shots per category, the A-J cascade", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  ScopedEnv hub("HF_HUB_CACHE", kHub);
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(
      tmp, {"--url", mock.url(), "--endpoint-type", "chat", "--request-count", "4", "--accuracy-benchmark", "mmlu-pro",
            "--accuracy-tasks", "math", "--accuracy-tasks", "computer science", "--random-seed", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\n"
        "OVERALL,3,4,1,0.7500\r\n"
        "computer science,2,2,1,1.0000\r\n"
        "math,1,2,0,0.5000\r\n");
  const auto graded = run.lines("accuracy_export.jsonl");
  REQUIRE(graded.size() == 4);
  CHECK(graded[0]["conversation_id"] == "session_000000");
  CHECK(graded[1]["actual"] == "B");
  CHECK(graded[3]["explanation"] == "extracted 'D' (fallback); ground_truth 'D'; match=True");
  const json first = run.inputs()["data"][0]["payloads"][0];
  CHECK(first["max_completion_tokens"] == 4000);
  CHECK_FALSE(first.contains("stop"));
  const std::string prompt = first["messages"][0]["content"];
  CHECK(prompt.find("Answer: Let's think step by step. It is B. The answer is (B).\n\n") != std::string::npos);
}

TEST_CASE("accuracy options are refused as AIPerf refuses them, and what is not run here is refused", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  ScopedEnv hub("HF_HUB_CACHE", kHub);
  auto refused = [&](std::vector<std::string> args, const std::string& message) {
    args.insert(args.end(), {"--url", "http://127.0.0.1:9", "--endpoint-type", "chat"});
    const auto run = profile(tmp, args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(message) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp + "/artifacts"));
  };
  refused({"--accuracy-tasks", "x", "--accuracy-verbose"},
          "Accuracy options --accuracy-tasks, --accuracy-verbose were set but --accuracy-benchmark is not. Accuracy "
          "mode requires --accuracy-benchmark to select a benchmark; otherwise these flags are silently ignored. "
          "Available benchmarks: aime, aime24, aime25, bigbench, gpqa_diamond, gsm8k, hellaswag, lcb_codegeneration, "
          "math_500, mmlu, mmlu_pro.");
  refused({"--accuracy-benchmark", "mmlu", "--accuracy-n-shots", "33"}, "--accuracy-n-shots");
  refused({"--accuracy-benchmark", "lcb_codegeneration"},
          "--accuracy-benchmark lcb_codegeneration is graded by running the model's code (code_execution)");
  refused({"--accuracy-benchmark", "gsm8k", "--accuracy-grader", "code-execution"},
          "--accuracy-grader code_execution executes the model's code");
  refused({"--accuracy-benchmark", "mmlu", "--accuracy-tasks", "cooking"}, "Unknown MMLU subject 'cooking'.");
  refused({"--accuracy-benchmark", "gsm8k", "--dataset-sampling-strategy", "random"},
          "Accuracy mode requires sequential request order; 'random' sampling is not supported.");
  ScopedEnv empty("HF_HUB_CACHE", tmp + "/no-hub");
  refused({"--accuracy-benchmark", "gsm8k"},
          "--accuracy-benchmark gsm8k: dataset openai/gsm8k is not available "
          "offline: looked in ");
}
