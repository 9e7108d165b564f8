// End-to-end: --apply-chat-template counts the ISL of chat requests through the tokenizer's
// chat template (tests/data/tokenizer/qwen3), as AIPerf 0.13 does with transformers'
// apply_chat_template(messages, tokenize=True, add_generation_prompt=True); tokenizers without a
// template (mistral) keep the bare-text count. Expected figures from transformers 5.23:
//   "Hello there, how are you?"                     qwen3 templated 15, bare 7; mistral bare 7
//   "Tell me a story about a dragon and a knight."  qwen3 templated 19, bare 11; mistral bare 12
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <vector>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kTokenizers = std::string(AIPERF_TEST_DATA) + "/tokenizer/";

std::string write_prompts(const std::string& tmp) {
  const std::string path = tmp + "/prompts.jsonl";
  std::ofstream(path) << R"({"text": "Hello there, how are you?"})" << "\n"
                      << R"({"text": "Tell me a story about a dragon and a knight."})" << "\n";
  return path;
}

// The sorted ISLs of a run; by default two requests over both prompts of write_prompts.
std::vector<int> isls(const std::string& name, const std::string& tokenizer, bool apply,
                      const std::vector<std::string>& extra = {}, bool file = true) {
  const std::string tmp = aiperf::test::make_temp_dir();  // one mock per directory
  MockServer mock({"--fast"}, tmp);
  std::vector<std::string> args{"--tokenizer", kTokenizers + tokenizer, "--ui-type", "none", "--model", "m",
                                "--url", mock.url(), "--concurrency", "1", "--random-seed", "7"};
  if (file) {
    const std::string prompts = write_prompts(tmp);
    args.insert(args.end(), {"--input-file", prompts, "--custom-dataset-type", "single_turn",
                             "--dataset-sampling-strategy", "sequential", "--request-count", "2"});
  }
  if (apply) args.push_back("--apply-chat-template");
  args.insert(args.end(), extra.begin(), extra.end());
  const auto run = aiperf::test::run_profile(tmp + "/" + name, args, tmp, name, 120);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::vector<int> out;
  for (const json& r : run.records()) {
    REQUIRE_FALSE(r.contains("error"));
    out.push_back(r["metrics"]["input_sequence_length"]["value"].get<int>());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("option apply-chat-template: ISL through the qwen3 chat template", "[e2e][chat_template]") {
  CHECK(isls("templated", "qwen3", true) == std::vector<int>{15, 19});
  CHECK(isls("templated_stream", "qwen3", true, {"--streaming"}) == std::vector<int>{15, 19});
  CHECK(isls("bare", "qwen3", false) == std::vector<int>{7, 11});
}

TEST_CASE("option apply-chat-template: bare text for a tokenizer without a chat template", "[e2e][chat_template]") {
  CHECK(isls("mistral", "mistral", true) == std::vector<int>{7, 12});
}

TEST_CASE("option apply-chat-template: completions bodies are not chat-shaped", "[e2e][chat_template]") {
  CHECK(isls("completions", "qwen3", true, {"--endpoint-type", "completions"}) == std::vector<int>{7, 11});
}

TEST_CASE("option apply-chat-template: synthetic prompts are shortened by the template's wrapping", "[e2e][chat_template]") {
  // qwen3: 3 tokens per request (generation prompt) + 5 per message (role header, end of turn),
  // so a 100-token budget becomes a 92-token prompt that is 100 tokens on the wire.
  const std::vector<std::string> synthetic{"--synthetic-input-tokens-mean", "100", "--synthetic-input-tokens-stddev",
                                           "0", "--request-count", "3"};
  CHECK(isls("synthetic_templated", "qwen3", true, synthetic, false) == std::vector<int>{100, 100, 100});
  CHECK(isls("synthetic_bare", "qwen3", false, synthetic, false) == std::vector<int>{100, 100, 100});
}
