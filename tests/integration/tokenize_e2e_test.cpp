// `aiperf tokenize` as a user runs it: JSON lines on stdin, one JSON line out per line in.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "process.h"

using aiperf::test::Process;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";
// The bundled tiktoken rank files (product data, common/tokenizer/data/tiktoken).
const std::string kTiktoken = AIPERF_TIKTOKEN_DIR;

struct Result {
  int exit_code;
  std::string out, err;
};

// Runs `aiperf tokenize <args>` with `input` on stdin (through sh, since Process has no stdin).
Result tokenize(const std::string& dir, const std::string& input, const std::string& args) {
  const std::string in_path = dir + "/stdin.jsonl";
  std::ofstream(in_path) << input;
  Process p("/bin/sh", {"-c", std::string(AIPERF_BIN_DIR) + "/aiperf tokenize " + args + " < " + in_path}, dir,
            "tokenize");
  auto code = p.wait(60);
  REQUIRE(code.has_value());
  return {*code, p.out(), p.err()};
}

}  // namespace

TEST_CASE("tokenize encodes JSON lines in order with the bundled gpt2", "[e2e][tokenize]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Result r = tokenize(tmp, "{\"text\": \"Hello world\"}\n{\"text\": \"\"}\n{\"text\": \"<|endoftext|> x\"}\n", "");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "{\"ids\":[15496,995]}\n{\"ids\":[]}\n{\"ids\":[50256,2124]}\n");
}

TEST_CASE("tokenize --decode with and without special tokens", "[e2e][tokenize]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string qwen = kData + "qwen3";
  const std::string input = "{\"ids\": [151644, 872, 151667, 151645]}\n";
  Result keep = tokenize(tmp, input, "--tokenizer " + qwen + " --decode");
  REQUIRE(keep.exit_code == 0);
  CHECK(keep.out == "{\"text\":\"<|im_start|>user<think><|im_end|>\"}\n");
  Result skip = tokenize(tmp, input, "--tokenizer " + qwen + " --decode --skip-special-tokens");
  REQUIRE(skip.exit_code == 0);
  CHECK(skip.out == "{\"text\":\"user<think>\"}\n");
}

TEST_CASE("tokenize reads tiktoken and sentencepiece files", "[e2e][tokenize]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Result tik = tokenize(tmp, "{\"text\": \"Hello world\"}\n", "--tokenizer " + kTiktoken + "/o200k_base.tiktoken");
  REQUIRE(tik.exit_code == 0);
  CHECK(tik.out == "{\"ids\":[13225,2375]}\n");
  // Line 1 of golden-spm-unigram-8k.jsonl, through the CLI.
  std::ifstream golden(kData + "golden-spm-unigram-8k.jsonl");
  std::string first;
  std::getline(golden, first);
  json g = json::parse(first);
  Result spm = tokenize(tmp, json{{"text", g["text"]}}.dump() + "\n",
                        "--tokenizer " + kData + "spm/spm-unigram-8k.model");
  REQUIRE(spm.exit_code == 0);
  CHECK(json::parse(spm.out)["ids"] == g["ids"]);
}

TEST_CASE("tokenize resolves a hub name from a pre-filled cache offline", "[e2e][tokenize]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string sha = "89abcdef0123456789abcdef0123456789abcdef";
  fs::path snap = fs::path(tmp) / "hub" / "models--acme--tok" / "snapshots" / sha;
  fs::create_directories(snap);
  fs::create_directories(snap.parent_path().parent_path() / "refs");
  std::ofstream(snap.parent_path().parent_path() / "refs" / "release") << sha;
  fs::copy_file(kData + "mistral/tokenizer.json", snap / "tokenizer.json");
  // The child inherits this environment: the cache above, and no network.
  ::setenv("HF_HUB_CACHE", (fs::path(tmp) / "hub").c_str(), 1);
  ::setenv("HF_HUB_OFFLINE", "1", 1);
  Result ok = tokenize(tmp, "{\"text\": \"Hello\"}\n", "--tokenizer acme/tok --tokenizer-revision release");
  Result missing = tokenize(tmp, "{\"text\": \"Hello\"}\n", "--tokenizer acme/tok");
  ::unsetenv("HF_HUB_CACHE");
  ::unsetenv("HF_HUB_OFFLINE");
  INFO(ok.err);
  REQUIRE(ok.exit_code == 0);
  CHECK(ok.out == "{\"ids\":[22557]}\n");
  CHECK(missing.exit_code == 2);
  CHECK(missing.err == "Error: --tokenizer: tokenizer 'acme/tok' (revision main) is not in the HF cache " +
                           (fs::path(tmp) / "hub" / "models--acme--tok").string() + " and HF_HUB_OFFLINE is set\n");
}

TEST_CASE("tokenize stops at a bad line with exit 2 and its line number", "[e2e][tokenize]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Result r = tokenize(tmp, "{\"text\": \"a\"}\n{\"txt\": \"b\"}\n{\"text\": \"c\"}\n", "");
  CHECK(r.exit_code == 2);
  CHECK(r.out == "{\"ids\":[64]}\n");
  CHECK(r.err == "Error: stdin line 2: expected {\"text\": string}\n");
  Result bad_json = tokenize(tmp, "{\"ids\": [1, 2]}\nnot json\n", "--decode");
  CHECK(bad_json.exit_code == 2);
  CHECK(bad_json.err == "Error: stdin line 2: not valid JSON\n");
  Result bad_ids = tokenize(tmp, "{\"ids\": [1, \"x\"]}\n", "--decode");
  CHECK(bad_ids.exit_code == 2);
  CHECK(bad_ids.err == "Error: stdin line 1: \"ids\" must hold only integers\n");
}
