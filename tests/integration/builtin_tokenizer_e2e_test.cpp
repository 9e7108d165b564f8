// End-to-end: `--tokenizer builtin` (the bundled o200k_base, no network, no user files), the
// tiktoken names accepted directly, and AIPerf's placeholder-model-name fallback to builtin.
// ISL/OSL in the export must be the o200k_base counts of the prompt and the generated text.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "process.h"
#include "tokenizer/tokenizer.h"

using aiperf::test::MockServer;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::ProfileRun;
const std::string kTiktoken = AIPERF_TIKTOKEN_DIR;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  std::vector<std::string> full{"--ui-type", "none", "--endpoint-type", "chat", "--random-seed", "1"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/" + name, full, tmp, name, 120);
}

size_t count(const aiperf::tok::Tokenizer& tok, const std::string& text) { return tok.encode(text).size(); }

// Every request's ISL/OSL equals `tok`'s count of its prompt (inputs.json) and of its generated
// text (outputs.json); with `golden_isl` (prompt -> count from the golden files), the ISL is also
// that independent count.
void check_counts(const Run& run, const aiperf::tok::Tokenizer& tok, size_t requests,
                  const std::map<std::string, size_t>& golden_isl = {}) {
  std::map<std::string, std::string> prompt;
  const json inputs = run.inputs();
  for (const json& e : inputs["data"]) {
    prompt[e["session_id"]] = e["payloads"][0]["messages"][0]["content"].get<std::string>();
  }
  const json outputs = run.json_file("outputs.json");
  REQUIRE(outputs["data"].size() == requests);
  for (const json& e : outputs["data"]) {
    const std::string conv = e["conversation_id"];
    REQUIRE(prompt.count(conv) == 1);
    INFO(conv << ": " << prompt[conv]);
    CHECK(e["metrics"]["input_sequence_length"] == count(tok, prompt[conv]));
    if (!golden_isl.empty()) {
      REQUIRE(golden_isl.count(prompt[conv]) == 1);
      CHECK(e["metrics"]["input_sequence_length"] == golden_isl.at(prompt[conv]));
    }
    const std::string text = e["response_text"];
    CHECK_FALSE(text.empty());
    CHECK(e["metrics"]["output_sequence_length"] == count(tok, text));
  }
}

// Prompts whose counts differ between encodings (golden-{o200k,cl100k,r50k}_base.jsonl): o200k,
// cl100k, r50k = 14,14,13 / 9,9,10 / 14,15,17 / 11,11,13.
const std::vector<std::string> kPrompts = {"Q: What is 2+2?\nA: 4.", "x² + y³ = z⁴",
                                           "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG!", "Ⅻ Ⅳ ⅸ roman numerals"};

std::string write_prompts(const std::string& tmp) {
  const std::string path = tmp + "/prompts.jsonl";
  std::ofstream out(path);
  for (const std::string& p : kPrompts) out << json{{"text", p}}.dump() << "\n";
  return path;
}

std::map<std::string, size_t> golden(std::vector<size_t> counts) {
  std::map<std::string, size_t> m;
  for (size_t i = 0; i < kPrompts.size(); ++i) m[kPrompts[i]] = counts[i];
  return m;
}

}  // namespace

TEST_CASE("tokenizer builtin counts ISL/OSL with the bundled o200k_base", "[e2e][builtin_tokenizer]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // No Hub, no TIKTOKEN_ENCODINGS_BASE: only the bundled file can serve.
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  ::unsetenv("TIKTOKEN_ENCODINGS_BASE");
  auto o200k = aiperf::tok::load_tokenizer(kTiktoken + "/o200k_base.tiktoken");
  Run run = profile(tmp, "builtin", {"--url", mock.url(), "--model", "gpt-4o", "--tokenizer", "builtin",
                                     "--input-file", write_prompts(tmp), "--custom-dataset-type", "single_turn",
                                     "--request-count", "4", "--osl", "12", "--export-outputs-json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  check_counts(run, *o200k, 4, golden({14, 9, 14, 11}));
  // The name recorded is the one given, as AIPerf records it.
  CHECK(run.summary()["input_config"]["tokenizer"]["name"] == "builtin");
  CHECK((run.out + run.err).find("looks like a placeholder") == std::string::npos);

  // Synthetic prompts: ISL and OSL are o200k counts too.
  Run synth = profile(tmp, "synthetic", {"--url", mock.url(), "--model", "gpt-4o", "--tokenizer", "builtin",
                                         "--request-count", "6", "--concurrency", "2", "--isl", "40", "--osl", "12",
                                         "--export-outputs-json"});
  INFO(synth.out << synth.err);
  REQUIRE(synth.exit_code == 0);
  check_counts(synth, *o200k, 6);
}

TEST_CASE("a tiktoken encoding name is a tokenizer: cl100k_base", "[e2e][builtin_tokenizer]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, "cl100k", {"--url", mock.url(), "--model", "gpt-4", "--tokenizer", "cl100k_base",
                                    "--input-file", write_prompts(tmp), "--custom-dataset-type", "single_turn",
                                    "--request-count", "4", "--osl", "12", "--export-outputs-json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto cl100k = aiperf::tok::load_tokenizer(kTiktoken + "/cl100k_base.tiktoken");
  check_counts(run, *cl100k, 4, golden({14, 9, 15, 11}));
  CHECK(run.summary()["input_config"]["tokenizer"]["name"] == "cl100k_base");
}

TEST_CASE("a placeholder model name without --tokenizer uses builtin, with AIPerf's warning",
          "[e2e][builtin_tokenizer]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, "mock", {"--url", mock.url(), "--model", "mock-model", "--input-file", write_prompts(tmp),
                                  "--custom-dataset-type", "single_turn", "--request-count", "4", "--osl", "12",
                                  "--export-outputs-json"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string warning =
      "Model name 'mock-model' looks like a placeholder; defaulting tokenizer to 'builtin' (tiktoken "
      "o200k_base). Pass --tokenizer <name> to override.";
  CHECK((run.out + run.err).find(warning) != std::string::npos);
  auto o200k = aiperf::tok::load_tokenizer(kTiktoken + "/o200k_base.tiktoken");
  check_counts(run, *o200k, 4, golden({14, 9, 14, 11}));
  CHECK(run.summary()["input_config"]["tokenizer"]["name"] == "builtin");

  // An explicit --tokenizer wins: no warning.
  Run gpt2 = profile(tmp, "explicit", {"--url", mock.url(), "--model", "mock-model", "--tokenizer", "gpt2",
                                       "--request-count", "2", "--isl", "40", "--osl", "12"});
  INFO(gpt2.out << gpt2.err);
  REQUIRE(gpt2.exit_code == 0);
  CHECK((gpt2.out + gpt2.err).find("looks like a placeholder") == std::string::npos);
  CHECK(gpt2.summary()["input_config"]["tokenizer"]["name"] == "gpt2");
}

TEST_CASE("an accepted tiktoken name we do not ship: exit 2 naming --tokenizer, nothing written",
          "[e2e][builtin_tokenizer]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Run run = profile(tmp, "harmony", {"--url", "http://127.0.0.1:9", "--model", "gpt-oss", "--tokenizer",
                                     "o200k_harmony", "--request-count", "1"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("--tokenizer: tokenizer 'o200k_harmony': this tiktoken encoding is not supported") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(run.dir));
}

TEST_CASE("a Hub tokenizer that cannot be fetched: exit 2 saying what works instead, nothing written",
          "[e2e][builtin_tokenizer]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // An empty cache and a Hub that refuses connections: the model's own tokenizer cannot come.
  ::setenv("HF_HUB_CACHE", (tmp + "/hub").c_str(), 1);
  ::setenv("HF_ENDPOINT", "http://127.0.0.1:9", 1);
  Run run =
      profile(tmp, "unreachable", {"--url", "http://127.0.0.1:9", "--model", "acme/model-7b", "--request-count", "1"});
  ::unsetenv("HF_ENDPOINT");
  ::unsetenv("HF_HUB_CACHE");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("Error: --tokenizer: tokenizer 'acme/model-7b': cannot download tokenizer.json from "
                     "http://127.0.0.1:9/acme/model-7b/resolve/main/tokenizer.json") != std::string::npos);
  CHECK(run.err.find("Use a local tokenizer (--tokenizer /path/to/dir or tokenizer.json), a Hub name already in the "
                     "cache (e.g. --tokenizer gpt2), or --tokenizer builtin (o200k_base, no download needed).") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(run.dir));
}
