// Golden files from HF tokenizers 0.23.2 (see tests/data/tokenizer/LICENSES.md): every line
// must give identical ids (encode) or identical text (decode).
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

using aiperf::tok::TokenId;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

// Checks every line and reports the 1-based numbers of the lines that differ.
void check_encode_golden(const std::string& tokenizer_dir, const std::string& golden) {
  auto tok = aiperf::tok::load_tokenizer(tokenizer_dir);
  auto lines = read_jsonl(kData + golden);
  REQUIRE(lines.size() == 363);
  std::vector<size_t> failed;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto expected = lines[i]["ids"].get<std::vector<TokenId>>();
    if (tok->encode(lines[i]["text"].get<std::string>()) != expected) failed.push_back(i + 1);
  }
  INFO(golden << " failing lines: " << nlohmann::json(failed).dump());
  CHECK(failed.empty());
}

void check_decode_golden(const std::string& tokenizer_dir, const std::string& golden) {
  auto tok = aiperf::tok::load_tokenizer(tokenizer_dir);
  auto lines = read_jsonl(kData + golden);
  REQUIRE(lines.size() == 513);
  std::vector<size_t> failed;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto ids = lines[i]["ids"].get<std::vector<TokenId>>();
    bool skip = lines[i]["skip_special_tokens"].get<bool>();
    if (tok->decode(ids, skip) != lines[i]["text"].get<std::string>()) failed.push_back(i + 1);
  }
  INFO(golden << " failing lines: " << nlohmann::json(failed).dump());
  CHECK(failed.empty());
}

}  // namespace

TEST_CASE("gpt2 encode matches HF on every golden line", "[tokenizer][golden]") {
  check_encode_golden(AIPERF_GPT2_DIR, "golden-gpt2.jsonl");
}

TEST_CASE("gpt2 decode matches HF on every golden line", "[tokenizer][golden]") {
  check_decode_golden(AIPERF_GPT2_DIR, "golden-decode-gpt2.jsonl");
}

TEST_CASE("qwen3 encode matches HF on every golden line", "[tokenizer][golden]") {
  check_encode_golden(kData + "qwen3", "golden-qwen3.jsonl");
}

TEST_CASE("qwen3 decode matches HF on every golden line", "[tokenizer][golden]") {
  check_decode_golden(kData + "qwen3", "golden-decode-qwen3.jsonl");
}

TEST_CASE("mistral encode matches HF on every golden line", "[tokenizer][golden]") {
  check_encode_golden(kData + "mistral", "golden-mistral.jsonl");
}

TEST_CASE("mistral decode matches HF on every golden line", "[tokenizer][golden]") {
  check_decode_golden(kData + "mistral", "golden-decode-mistral.jsonl");
}

TEST_CASE("cl100k-hf encode matches HF on every golden line", "[tokenizer][golden]") {
  check_encode_golden(kData + "cl100k-hf", "golden-cl100k-hf.jsonl");
}
