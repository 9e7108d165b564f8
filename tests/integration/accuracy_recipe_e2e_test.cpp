// End-to-end: the benchmarks AIPerf 0.13 aligned with the trt-llm recipe (aime, aime24,
// gpqa_diamond) against the mock's scripted answers (--reply-rules), from the fixture datasets of
// tests/data/accuracy in their Hub layouts (a lone Parquet file, a CSV config): the requests as
// sent, the math grader's verdicts, the accuracy files with exact numbers; and the refusals of
// what needs lighteval or DeepEval (exit 2, nothing written).
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

aiperf::test::ProfileRun profile(const std::string& tmp, std::vector<std::string> args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120);
}

}  // namespace

TEST_CASE("accuracy aime over chat: the AIME template with 8 shots, the system prompt, the math grader", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  ScopedEnv hub("HF_HUB_CACHE", kHub);
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(tmp, {"--url", mock.url(), "--endpoint-type", "chat", "--request-count", "3",
                                 "--accuracy-benchmark", "aime", "--extra-inputs", "temperature:0"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\nOVERALL,2,3,1,0.6667\r\naime,2,3,1,0.6667\r\n");
  const auto graded = run.lines("accuracy_export.jsonl");
  REQUIRE(graded.size() == 3);
  CHECK(graded[0]["grader_name"] == "math");
  CHECK(graded[0]["explanation"] ==
        "extracted '204' (stripped '204'); ground_truth '204' (stripped '204'); compared via stdlib-fallback; "
        "match=True");
  CHECK(graded[1]["explanation"] ==
        "extracted '25' (stripped '25'); ground_truth '25' (stripped '25'); compared via stdlib-fallback; "
        "match=True (regex fallback)");
  CHECK(graded[2]["actual"] == "\\frac{14}{3}");
  CHECK(graded[2]["passed"] == false);
  CHECK(graded[2]["unparsed"] == false);
  const json first = run.inputs()["data"][0]["payloads"][0];
  CHECK(first["max_completion_tokens"] == 32768);
  CHECK_FALSE(first.contains("stop"));
  REQUIRE(first["messages"].size() == 2);
  CHECK(
      first["messages"][0] ==
      json{{"role", "system"}, {"content", "Please reason step by step, and put your final answer within \\boxed{}."}});
  const std::string prompt = first["messages"][1]["content"];
  CHECK(prompt.rfind("The following are problems from the American Invitational Mathematics Examination (AIME) "
                     "2024.",
                     0) == 0);
  CHECK(prompt.find("**Solution**: There are $5^2=25$.\n**Answer**: 25\n\n") != std::string::npos);
  const std::string tail = "x+4=208$.\n**Answer**: \n\nLet's think step-by-step.";
  REQUIRE(prompt.size() > tail.size());
  CHECK(prompt.substr(prompt.size() - tail.size()) == tail);
}

TEST_CASE("accuracy gpqa_diamond over completions from ./Idavidrein/gpqa (CSV), graded as multiple choice", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  fs::create_directories(tmp + "/work/Idavidrein");
  fs::create_directory_symlink(kHub + "/datasets--Idavidrein--gpqa" + kSnapshot, tmp + "/work/Idavidrein/gpqa");
  ScopedEnv hub("HF_HUB_CACHE", tmp + "/empty-hub");
  ScopedCwd cwd(tmp + "/work");
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(
      tmp, {"--url", mock.url(), "--endpoint-type", "completions", "--request-count", "3", "--accuracy-benchmark",
            "gpqa-diamond", "--accuracy-grader", "multiple_choice", "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\nOVERALL,2,3,2,0.6667\r\ngpqa_diamond,2,3,2,0.6667\r\n");
  const auto graded = run.lines("accuracy_export.jsonl");
  REQUIRE(graded.size() == 3);
  CHECK(graded[0]["conversation_id"] == "session_000000");
  CHECK(graded[0]["expected"] == "B");
  CHECK(graded[1]["expected"] == "D");
  CHECK(graded[1]["actual"] == "A");
  CHECK(graded[2]["passed"] == true);
  const json second = run.inputs()["data"][1]["payloads"][0];
  CHECK(second["max_tokens"] == 32768);
  CHECK(second["prompt"].get<std::string>().find(
            "GPQAFX2 Which molecule, at room temperature, is a \"noble\" gas?\n\nA) Nitrogen, N2\nB) Oxygen\nO2\n"
            "C) Chlorine\nD) Argon") != std::string::npos);
}

TEST_CASE("accuracy aime24 with --accuracy-grader math: the bare problem, 9/2 equals 4.5", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  ScopedEnv hub("HF_HUB_CACHE", kHub);
  MockServer mock({"--fast", "--reply-rules", kData + "/reply_rules.jsonl"}, tmp);
  const auto run = profile(tmp, {"--url", mock.url(), "--endpoint-type", "chat", "--request-count", "2",
                                 "--accuracy-benchmark", "aime24", "--accuracy-grader", "math"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(read_file(run.dir + "/accuracy_results.csv") ==
        "task,correct,total,unparsed,accuracy\r\nOVERALL,2,2,0,1.0000\r\naime24,2,2,0,1.0000\r\n");
  const json first = run.inputs()["data"][0]["payloads"][0];
  CHECK(first["messages"] == json::array({{{"role", "user"}, {"content", "AIME24FX1 What is $6\\cdot 7$?"}}}));
}

TEST_CASE("accuracy: the lighteval graders and the DeepEval benchmarks are refused, as AIPerf without them", "[e2e]") {
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
  refused({"--accuracy-benchmark", "aime24"},
          "--accuracy-grader lighteval_expr (the default of aime24) needs lighteval's extractive-match metric");
  refused({"--accuracy-benchmark", "math_500"}, "--accuracy-grader lighteval_latex (the default of math_500)");
  refused({"--accuracy-benchmark", "gpqa_diamond"},
          "Grade with another --accuracy-grader (math for aime24, aime25 "
          "and math_500; multiple_choice for gpqa_diamond)");
  refused({"--accuracy-benchmark", "mmlu", "--accuracy-grader", "lighteval_gpqa"},
          "--accuracy-grader lighteval_gpqa needs lighteval's");
  refused({"--accuracy-benchmark", "hellaswag"},
          "--accuracy-benchmark hellaswag builds its prompts with DeepEval's HellaSwag template");
  refused({"--accuracy-benchmark", "bigbench"}, "--accuracy-benchmark bigbench builds its prompts from DeepEval's");
  refused({"--accuracy-benchmark", "aime", "--accuracy-n-shots", "9"},
          "AIME supports at most 8 few-shot examples (got 9).");
}
