// Problems built from the fixture Hub cache (tests/data/accuracy/hub) against what AIPerf 0.13's
// benchmark loaders build from the same files (expected_problems.json, gen_expected_problems.py).
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accuracy/hf_dataset.h"
#include "accuracy/problems.h"

using namespace aiperf::accuracy;
namespace fs = std::filesystem;

namespace {

const std::string kHub = std::string(AIPERF_TEST_DATA) + "/accuracy/hub";

nlohmann::json expected(const std::string& key) {
  std::ifstream in(std::string(AIPERF_TEST_DATA) + "/accuracy/expected_problems.json");
  return nlohmann::json::parse(in).at(key);
}

void check_same(const std::vector<Problem>& got, const nlohmann::json& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("problem " << i);
    CHECK(got[i].prompt == want[i]["prompt"].get<std::string>());
    CHECK(got[i].ground_truth == want[i]["ground_truth"].get<std::string>());
    CHECK(got[i].task == want[i]["task"].get<std::string>());
    CHECK(nlohmann::json::parse(got[i].messages.dump()) == want[i]["messages"]);
    CHECK(got[i].generation_size == want[i]["generation_size"].get<int>());
    CHECK(nlohmann::json(got[i].stop) == want[i]["stop"]);
  }
}

ProblemOptions mmlu(std::vector<std::string> tasks, int shots, bool cot) {
  ProblemOptions o;
  o.benchmark = "mmlu";
  o.tasks = std::move(tasks);
  o.n_shots = shots;
  o.enable_cot = cot;
  return o;
}

}  // namespace

TEST_CASE("mmlu problems: lighteval's prompt and balanced 5-shot examples, as the reference builds them") {
  check_same(build_problems(mmlu({"abstract_algebra", "anatomy"}, 5, false), {"", kHub}), expected("mmlu_default"));
}

TEST_CASE("mmlu problems with chain of thought and 2 shots, and zero-shot") {
  check_same(build_problems(mmlu({"anatomy"}, 2, true), {"", kHub}), expected("mmlu_anatomy_2shot_cot"));
  check_same(build_problems(mmlu({"abstract_algebra"}, 0, false), {"", kHub}), expected("mmlu_0shot"));
}

TEST_CASE("gsm8k problems from the fixture cache") {
  ProblemOptions o;
  o.benchmark = "gsm8k";
  check_same(build_problems(o, {"", kHub}), expected("gsm8k"));
}

TEST_CASE("mmlu_pro problems: TIGER-AI-Lab's prompt with CoT shots from validation, and without CoT") {
  ProblemOptions o;
  o.benchmark = "mmlu_pro";
  o.n_shots = 5;
  o.enable_cot = true;
  check_same(build_problems(o, {"", kHub}), expected("mmlu_pro_default"));
  o.tasks = {"computer science"};
  o.n_shots = 2;
  o.enable_cot = false;
  check_same(build_problems(o, {"", kHub}), expected("mmlu_pro_cs_2shot_nocot"));
  o.tasks = {"cooking"};
  CHECK_THROWS_WITH(build_problems(o, {"", kHub}),
                    "Unknown MMLU-Pro category 'cooking'. Valid categories: biology, business, chemistry, computer "
                    "science, economics, engineering, health, history, law, math, philosophy, physics, psychology, "
                    "other.");
}

TEST_CASE("the system prompt leads the messages and the flat prompt") {
  ProblemOptions o;
  o.benchmark = "gsm8k";
  o.system_prompt = "Be brief.";
  const auto p = build_problems(o, {"", kHub});
  REQUIRE(p.size() == 4);
  CHECK(p[0].prompt ==
        "Be brief.\n\nQuestion: Tom has 3 apples and buys 2 more. How many apples does he have?\nAnswer:");
  CHECK(p[0].messages[0] == nlohmann::ordered_json{{"role", "system"}, {"content", "Be brief."}});
  CHECK(p[0].messages.size() == 2);
}

TEST_CASE("resolve_options takes the benchmark's defaults for what was not given") {
  aiperf::config::AccuracyConfig c;
  c.benchmark = "mmlu";
  auto o = resolve_options(c);
  CHECK(o.n_shots == 5);
  CHECK_FALSE(o.enable_cot);
  CHECK(o.system_prompt.empty());
  c.benchmark = "aime";
  o = resolve_options(c);
  CHECK(o.n_shots == 8);
  CHECK(o.enable_cot);
  CHECK(o.system_prompt == "Please reason step by step, and put your final answer within \\boxed{}.");
  c.n_shots = 0;
  c.enable_cot = false;
  c.system_prompt = "";
  o = resolve_options(c);
  CHECK(o.n_shots == 0);
  CHECK_FALSE(o.enable_cot);
  CHECK(o.system_prompt.empty());
}

TEST_CASE("an unknown MMLU subject is refused with the reference's message") {
  CHECK_THROWS_WITH(build_problems(mmlu({"cooking"}, 0, false), {"", kHub}),
                    "Unknown MMLU subject 'cooking'. See docs/accuracy/accuracy-benchmarking.md for the list of 57 "
                    "valid subjects.");
}

TEST_CASE("a dataset missing offline names the repo and every place looked in") {
  const std::string local = fs::temp_directory_path() / "aiperf_accuracy_missing";
  fs::create_directories(local);
  try {
    load_rows("openai/gsm8k", "main", "test", {local, "/nonexistent/hub"});
    FAIL("no error");
  } catch (const DatasetError& e) {
    CHECK(std::string(e.what()) ==
          "dataset openai/gsm8k is not available offline: looked in " + local +
              "/openai/gsm8k, /nonexistent/hub/datasets--openai--gsm8k. Download it into the HuggingFace cache "
              "(huggingface-cli download --repo-type dataset openai/gsm8k) or put its files in ./openai/gsm8k");
  }
  fs::remove_all(local);
}

TEST_CASE("a local directory named like the repo wins over the cache, read by the card's configs") {
  const fs::path local = fs::temp_directory_path() / "aiperf_accuracy_local";
  fs::remove_all(local);
  fs::create_directories(local / "openai/gsm8k/main");
  std::ofstream(local / "openai/gsm8k/README.md")
      << "---\nconfigs:\n- config_name: main\n  data_files:\n  - split: test\n    path: main/test-*\n---\n";
  std::ofstream(local / "openai/gsm8k/main/test-00000-of-00001.jsonl")
      << "{\"question\": \"Q1\", \"answer\": \"#### 1\"}\n\n{\"question\": \"Q2\", \"answer\": \"#### 2\"}\n";
  std::ofstream(local / "openai/gsm8k/main/train-00000-of-00001.jsonl") << "{\"question\": \"T\", \"answer\": \"x\"}\n";
  const auto rows = load_rows("openai/gsm8k", "main", "test", {local.string(), kHub});
  REQUIRE(rows.size() == 2);
  CHECK(rows[1]["question"] == "Q2");
  CHECK_THROWS_WITH(load_rows("openai/gsm8k", "socratic", "test", {local.string(), kHub}),
                    "dataset openai/gsm8k (config socratic, split test): no config 'socratic' in " +
                        (local / "openai/gsm8k/README.md").string() + " (configs: main)");
  fs::remove_all(local);
}

TEST_CASE("without a card, the conventional split file names select the data files") {
  const fs::path root = fs::temp_directory_path() / "aiperf_accuracy_nocard";
  fs::remove_all(root);
  fs::create_directories(root / "main");
  for (const char* f : {"main/test-00000-of-00002.jsonl", "main/test-00001-of-00002.jsonl", "main/train.jsonl",
                        "main/testing_notes.jsonl"})
    std::ofstream(root / f) << "{}\n";
  const auto files = data_files(root.string(), "x/y", "main", "test");
  REQUIRE(files.size() == 2);
  CHECK(files[0] == (root / "main/test-00000-of-00002.jsonl").string());
  CHECK(files[1] == (root / "main/test-00001-of-00002.jsonl").string());
  fs::remove_all(root);
}

TEST_CASE("problem conversation ids are stable per run and distinct per problem") {
  CHECK(problem_conversation_id("run-a", 42, 7) == "session_000007");
  const std::string a0 = problem_conversation_id("run-a", std::nullopt, 0);
  CHECK(a0 == problem_conversation_id("run-a", std::nullopt, 0));
  CHECK(a0 != problem_conversation_id("run-a", std::nullopt, 1));
  CHECK(a0 != problem_conversation_id("run-b", std::nullopt, 0));
  CHECK(a0.size() == 36);
  CHECK(a0[14] == '4');
}
