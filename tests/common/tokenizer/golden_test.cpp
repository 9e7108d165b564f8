// Golden files from HF tokenizers 0.23.2, tiktoken 1.0.22 and libsentencepiece 0.1.97 (see
// tests/data/tokenizer/LICENSES.md and tests/common/tokenizer/data/README.md): every line must
// give identical ids (encode) or identical text (decode).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/spm_tokenizer.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/tokenizer.h"

using aiperf::tok::TokenId;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";
// The bundled tiktoken rank files (product data, common/tokenizer/data/tiktoken).
const std::string kTiktoken = AIPERF_TIKTOKEN_DIR;
const std::string kModelData = std::string(AIPERF_TOKENIZER_MODEL_DATA) + "/";

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
void check_encode_golden(const aiperf::tok::Tokenizer& tok, const std::string& golden) {
  auto lines = read_jsonl(kData + golden);
  REQUIRE(lines.size() == 363);
  std::vector<size_t> failed;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto expected = lines[i]["ids"].get<std::vector<TokenId>>();
    if (tok.encode(lines[i]["text"].get<std::string>()) != expected) failed.push_back(i + 1);
  }
  INFO(golden << " failing lines: " << nlohmann::json(failed).dump());
  CHECK(failed.empty());
}

void check_encode_golden(const std::string& tokenizer_path, const std::string& golden) {
  check_encode_golden(*aiperf::tok::load_tokenizer(tokenizer_path), golden);
}

// tiktoken goldens are encode_ordinary (special-token text is plain text); encode() is
// allowed_special="all", so it must agree on every line without special-token text.
void check_tiktoken_golden(const std::string& file, const std::string& golden) {
  aiperf::tok::TiktokenTokenizer tok(file);
  auto lines = read_jsonl(kData + golden);
  REQUIRE(lines.size() == 363);
  std::vector<size_t> failed;
  size_t plain = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto text = lines[i]["text"].get<std::string>();
    auto expected = lines[i]["ids"].get<std::vector<TokenId>>();
    if (tok.encode_ordinary(text) != expected) failed.push_back(i + 1);
    if (text.find("<|endoftext|>") == std::string::npos && text.find("<|endofprompt|>") == std::string::npos &&
        text.find("<|fim_") == std::string::npos) {
      ++plain;
      if (tok.encode(text) != expected) failed.push_back(i + 1);
    }
  }
  INFO(golden << " failing lines: " << nlohmann::json(failed).dump());
  CHECK(failed.empty());
  CHECK(plain > 300);
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

// The WordPiece/Unigram goldens hold {"ids", "decoded"} per line of the shared corpus (the
// texts of golden-qwen3.jsonl): encode must give the ids, decode(ids, skip=true) the text.
void check_model_golden(const aiperf::tok::Tokenizer& tok, const std::string& golden) {
  auto texts = read_jsonl(kData + "golden-qwen3.jsonl");
  auto lines = read_jsonl(kModelData + golden);
  REQUIRE(lines.size() == texts.size());
  std::vector<size_t> encode_failed, decode_failed;
  for (size_t i = 0; i < lines.size(); ++i) {
    auto expected = lines[i]["ids"].get<std::vector<TokenId>>();
    if (tok.encode(texts[i]["text"].get<std::string>()) != expected) encode_failed.push_back(i + 1);
    if (tok.decode(expected, true) != lines[i]["decoded"].get<std::string>()) decode_failed.push_back(i + 1);
  }
  INFO(golden << " failing encode lines: " << nlohmann::json(encode_failed).dump()
              << ", failing decode lines: " << nlohmann::json(decode_failed).dump());
  CHECK(encode_failed.empty());
  CHECK(decode_failed.empty());
}

}  // namespace

TEST_CASE("wordpiece (BERT-cased style) encode and decode match HF on every golden line", "[tokenizer][golden]") {
  check_model_golden(*aiperf::tok::load_tokenizer(kModelData + "wordpiece-8k"), "golden-wordpiece-8k.jsonl");
}

TEST_CASE("wordpiece with lowercasing BertNormalizer matches HF on every golden line", "[tokenizer][golden]") {
  // The same file with lowercase=true (strip_accents null, so accents go too), as make_golden.sh.
  std::ifstream in(kModelData + "wordpiece-8k/tokenizer.json");
  auto json = nlohmann::json::parse(in);
  json["normalizer"]["lowercase"] = true;
  auto dir = std::filesystem::temp_directory_path() / ("aiperf_tok_uncased_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "tokenizer.json") << json.dump();
  check_model_golden(*aiperf::tok::load_tokenizer(dir.string()), "golden-wordpiece-8k-uncased.jsonl");
  std::filesystem::remove_all(dir);
}

TEST_CASE("unigram (T5 style, Precompiled charsmap) encode and decode match HF on every golden line",
          "[tokenizer][golden]") {
  check_model_golden(*aiperf::tok::load_tokenizer(kModelData + "unigram-8k"), "golden-unigram-8k.jsonl");
}

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

// tiktoken goldens are encode_ordinary: special-token text is plain text.
TEST_CASE("tiktoken cl100k_base encode matches tiktoken on every golden line", "[tokenizer][golden]") {
  check_tiktoken_golden(kTiktoken + "/cl100k_base.tiktoken", "golden-cl100k_base.jsonl");
}

TEST_CASE("tiktoken o200k_base encode matches tiktoken on every golden line", "[tokenizer][golden]") {
  check_tiktoken_golden(kTiktoken + "/o200k_base.tiktoken", "golden-o200k_base.jsonl");
}

TEST_CASE("tiktoken r50k_base encode matches tiktoken on every golden line", "[tokenizer][golden]") {
  check_tiktoken_golden(kTiktoken + "/r50k_base.tiktoken", "golden-r50k_base.jsonl");
}

// The SentencePiece goldens are plain SentencePieceProcessor::Encode, so they are checked with
// special-token splitting off; unit_test.cpp covers the split.
TEST_CASE("spm unigram encode matches libsentencepiece on every golden line", "[tokenizer][golden]") {
  aiperf::tok::SpmTokenizer tok(kData + "spm/spm-unigram-8k.model", /*split_special=*/false);
  check_encode_golden(tok, "golden-spm-unigram-8k.jsonl");
}

TEST_CASE("spm bpe encode matches libsentencepiece on every golden line", "[tokenizer][golden]") {
  aiperf::tok::SpmTokenizer tok(kData + "spm/spm-bpe-8k.model", /*split_special=*/false);
  check_encode_golden(tok, "golden-spm-bpe-8k.jsonl");
}
