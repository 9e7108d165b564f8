// Behaviour of the tokenizer outside the golden corpora: loading errors, path resolution,
// special ids, pipeline components on tiny hand-written tokenizer.json files, threads.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tokenizer/tokenizer.h"

using aiperf::tok::TokenId;
using aiperf::tok::TokenizerError;
namespace fs = std::filesystem;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/tokenizer/";
// The bundled tiktoken rank files (product data, common/tokenizer/data/tiktoken).
const std::string kTiktoken = AIPERF_TIKTOKEN_DIR;

// Writes `content` to <tmp>/aiperf_tok_<name>/tokenizer.json and returns the directory.
std::string write_tokenizer(const std::string& name, const std::string& content) {
  fs::path dir = fs::temp_directory_path() / ("aiperf_tok_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "tokenizer.json") << content;
  return dir.string();
}

// A character-level BPE over "abc▁ 12" with merges a+b, ab+c and 1+2, plus the given parts.
std::string tiny_tokenizer(const std::string& normalizer, const std::string& pre_tokenizer,
                           const std::string& extra_added = "") {
  nlohmann::json j;
  j["version"] = "1.0";
  j["added_tokens"] = nlohmann::json::array();
  if (!extra_added.empty()) j["added_tokens"] = nlohmann::json::parse(extra_added);
  j["normalizer"] = nlohmann::json::parse(normalizer);
  j["pre_tokenizer"] = nlohmann::json::parse(pre_tokenizer);
  j["decoder"] = nullptr;
  j["model"] = {{"type", "BPE"},
                {"vocab", {{"a", 0}, {"b", 1}, {"c", 2}, {"\xE2\x96\x81", 3}, {" ", 4}, {"1", 5}, {"2", 6},
                           {"ab", 7}, {"abc", 8}, {"12", 9}, {"<unk>", 10}}},
                {"merges", {"a b", nlohmann::json::array({"ab", "c"}), "1 2"}},
                {"unk_token", "<unk>"},
                {"fuse_unk", true}};
  return j.dump();
}

std::vector<TokenId> encode_with(const std::string& name, const std::string& normalizer,
                                 const std::string& pre_tokenizer, const std::string& text) {
  auto tok = aiperf::tok::load_tokenizer(write_tokenizer(name, tiny_tokenizer(normalizer, pre_tokenizer)));
  return tok->encode(text);
}

}  // namespace

TEST_CASE("unknown component type names the type and the file", "[tokenizer]") {
  auto json = nlohmann::json::parse(tiny_tokenizer("null", "null"));
  json["pre_tokenizer"] = {{"type", "FancySplitter"}};
  std::string dir = write_tokenizer("unknown", json.dump());
  try {
    aiperf::tok::load_tokenizer(dir);
    FAIL("expected TokenizerError");
  } catch (const TokenizerError& e) {
    std::string msg = e.what();
    CHECK(msg.find("FancySplitter") != std::string::npos);
    CHECK(msg.find(dir + "/tokenizer.json") != std::string::npos);
  }
}

TEST_CASE("missing file and invalid JSON are reported with the file name", "[tokenizer]") {
  CHECK_THROWS_AS(aiperf::tok::load_tokenizer("/nonexistent/dir/tokenizer.json"), TokenizerError);
  std::string dir = write_tokenizer("badjson", "{\"model\": [");
  CHECK_THROWS_WITH(aiperf::tok::load_tokenizer(dir), Catch::Contains(dir + "/tokenizer.json"));
}

TEST_CASE("resolve_tokenizer_path finds local paths and the bundled gpt2", "[tokenizer]") {
  CHECK(aiperf::tok::resolve_tokenizer_path(kData + "qwen3") == kData + "qwen3");
  std::string gpt2 = aiperf::tok::resolve_tokenizer_path("gpt2");
  CHECK(fs::is_regular_file(fs::path(gpt2) / "tokenizer.json"));
  CHECK(aiperf::tok::load_tokenizer(gpt2)->encode("Hello world") == std::vector<TokenId>{15496, 995});
  CHECK_THROWS_WITH(aiperf::tok::resolve_tokenizer_path("./no/such dir"),
                    "tokenizer './no/such dir' not found: not a local file or directory, a bundled "
                    "tokenizer (gpt2) or a HuggingFace Hub repo id");
}

TEST_CASE("tiktoken files load by path, by directory and by encoding name", "[tokenizer][tiktoken]") {
  const std::string file = kTiktoken + "/cl100k_base.tiktoken";
  auto tok = aiperf::tok::load_tokenizer(file);
  CHECK(tok->encode("Hello world") == std::vector<TokenId>{9906, 1917});
  // allowed_special="all", as AIPerf encodes: special-token text is the special id.
  CHECK(tok->encode("<|endoftext|>") == std::vector<TokenId>{100257});
  CHECK(tok->decode(std::vector<TokenId>{9906, 100257, 1917}, false) == "Hello<|endoftext|> world");
  CHECK(tok->decode(std::vector<TokenId>{9906, 100257, 1917}, true) == "Hello world");
  CHECK(tok->block_separator() == 100257);
  CHECK(tok->vocab_size() == 100277);

  aiperf::tok::HubEnv env;
  env.tiktoken_base = kTiktoken;
  CHECK(aiperf::tok::resolve_tokenizer_path("o200k_base", "main", true, env) == kTiktoken + "/o200k_base.tiktoken");
  CHECK_THROWS_WITH(aiperf::tok::resolve_tokenizer_path("p50k_base"),
                    Catch::StartsWith("tokenizer 'p50k_base': no p50k_base.tiktoken found; set "
                                      "TIKTOKEN_ENCODINGS_BASE"));

  fs::path dir = fs::temp_directory_path() / ("aiperf_tok_tiktoken_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(kTiktoken + "/r50k_base.tiktoken", dir / "r50k_base.tiktoken",
                fs::copy_options::overwrite_existing);
  CHECK(aiperf::tok::load_tokenizer(dir.string())->encode("Hello world") == std::vector<TokenId>{15496, 995});
}

TEST_CASE("bad tiktoken files are reported with file and line", "[tokenizer][tiktoken]") {
  fs::path dir = fs::temp_directory_path() / ("aiperf_tok_badtik_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "cl100k_base.tiktoken") << "IQ== 0\nnot-base64! 1\n";
  CHECK_THROWS_WITH(aiperf::tok::load_tokenizer((dir / "cl100k_base.tiktoken").string()),
                    (dir / "cl100k_base.tiktoken").string() + ":2: invalid base64 token");
  std::ofstream(dir / "mine.tiktoken") << "IQ== 0\n";
  CHECK_THROWS_WITH(aiperf::tok::load_tokenizer((dir / "mine.tiktoken").string()),
                    Catch::Contains("unknown tiktoken encoding 'mine'"));
}

TEST_CASE("sentencepiece models split control tokens out of the text as transformers does", "[tokenizer][spm]") {
  auto tok = aiperf::tok::load_tokenizer(kData + "spm/spm-bpe-8k.model");
  auto abc = tok->encode("abc");
  auto def = tok->encode("def");
  // Every segment between <s>/</s>/<unk> is encoded on its own, so "def" keeps its dummy prefix.
  std::vector<TokenId> expected = abc;
  expected.push_back(1);
  expected.insert(expected.end(), def.begin(), def.end());
  expected.push_back(2);
  CHECK(tok->encode("abc<s>def</s>") == expected);
  CHECK(tok->encode("<unk>") == std::vector<TokenId>{0});
  CHECK(tok->block_separator() == 1);
  CHECK(tok->vocab_size() == 8000);
  CHECK(tok->decode(tok->encode("Hello  world\n\tx")) == "Hello  world\n\tx");
  CHECK(tok->decode(expected, false) == "abc<s> def</s>");
  CHECK(tok->decode(expected, true) == "abc def");
  // Byte fallback of an emoji decodes back; a lone continuation byte is one U+FFFD.
  CHECK(tok->decode(tok->encode("\xF0\x9F\x98\x80")) == "\xF0\x9F\x98\x80");
}

TEST_CASE("a directory with only tokenizer.model loads through sentencepiece", "[tokenizer][spm]") {
  fs::path dir = fs::temp_directory_path() / ("aiperf_tok_spmdir_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::copy_file(kData + "spm/spm-unigram-8k.model", dir / "tokenizer.model", fs::copy_options::overwrite_existing);
  auto tok = aiperf::tok::load_tokenizer(dir.string());
  CHECK(tok->encode("Hello world") == aiperf::tok::load_tokenizer(kData + "spm/spm-unigram-8k.model")->encode("Hello world"));
  CHECK_THROWS_WITH(aiperf::tok::load_tokenizer(kData + "golden-gpt2.jsonl.model"),
                    Catch::Contains("tokenizer file not found"));
}

TEST_CASE("vocab size and block separator of the real tokenizers", "[tokenizer]") {
  auto gpt2 = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  CHECK(gpt2->vocab_size() == 50257);
  CHECK(gpt2->block_separator() == 50256);  // <|endoftext|>: no BOS of its own
  auto qwen = aiperf::tok::load_tokenizer(kData + "qwen3");
  CHECK(qwen->vocab_size() == 151669);
  CHECK(qwen->block_separator() == 151645);  // bos_token null, eos_token <|im_end|>
  auto mistral = aiperf::tok::load_tokenizer(kData + "mistral");
  CHECK(mistral->vocab_size() == 32000);
  CHECK(mistral->block_separator() == 1);  // <s>
}

TEST_CASE("mistral prepends the metaspace to every segment between added tokens", "[tokenizer]") {
  auto tok = aiperf::tok::load_tokenizer(kData + "mistral");
  CHECK(tok->encode("").empty());
  CHECK(tok->encode(" ") == std::vector<TokenId>{259});  // "▁▁": Prepend then Replace
  auto ids = tok->encode("abc<s>def");                  // ▁abc <s> ▁def
  CHECK(ids == std::vector<TokenId>{18641, 1, 801});
  CHECK(tok->decode(ids, false) == "abc<s> def");
  CHECK(tok->decode(ids, true) == "abc def");
}

TEST_CASE("invalid UTF-8 input is encoded as its lossy decoding", "[tokenizer]") {
  auto tok = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  CHECK(tok->encode("a\xFF" "b") == tok->encode("a\xEF\xBF\xBD" "b"));
}

TEST_CASE("split behaviours cut pre-tokens as HF does", "[tokenizer]") {
  auto split = [](const std::string& behavior, bool invert) {
    return R"({"type":"Split","pattern":{"String":"b"},"behavior":")" + behavior + R"(","invert":)" +
           (invert ? "true" : "false") + "}";
  };
  // "abcab": b splits "a" "b" "c" "a" "b" in different groupings.
  CHECK(encode_with("iso", "null", split("Isolated", false), "abcab") == std::vector<TokenId>{0, 1, 2, 0, 1});
  CHECK(encode_with("rem", "null", split("Removed", false), "abcab") == std::vector<TokenId>{0, 2, 0});
  CHECK(encode_with("prev", "null", split("MergedWithPrevious", false), "abcab") == std::vector<TokenId>{7, 2, 7});
  CHECK(encode_with("next", "null", split("MergedWithNext", false), "abcab") == std::vector<TokenId>{0, 1, 2, 0, 1});
  CHECK(encode_with("inv", "null", split("Removed", true), "abcab") == std::vector<TokenId>{1, 1});
  CHECK(encode_with("contig", "null", split("Contiguous", false), "abbc") == std::vector<TokenId>{0, 1, 1, 2});
}

TEST_CASE("normalizers and simple pre-tokenizers", "[tokenizer]") {
  CHECK(encode_with("lower", R"({"type":"Lowercase"})", "null", "ABC") == std::vector<TokenId>{8});
  CHECK(encode_with("strip", R"({"type":"Strip","strip_left":true,"strip_right":true})", "null", "  abc ") ==
        std::vector<TokenId>{8});
  CHECK(encode_with("nfkc", R"({"type":"NFKC"})", "null", "\xEF\xBC\x91\xEF\xBC\x92") == std::vector<TokenId>{9});
  CHECK(encode_with("digits", "null", R"({"type":"Digits","individual_digits":true})", "12") ==
        std::vector<TokenId>{5, 6});
  CHECK(encode_with("ws", "null", R"({"type":"WhitespaceSplit"})", "ab  c") == std::vector<TokenId>{7, 2});
  CHECK(encode_with("meta", "null", R"({"type":"Metaspace","replacement":"▁","prepend_scheme":"always","split":true})",
                    "abc ab") == std::vector<TokenId>{3, 8, 3, 7});
  // Unknown characters become one fused <unk>.
  CHECK(encode_with("unk", "null", "null", "xyab") == std::vector<TokenId>{10, 7});
}

TEST_CASE("encode is safe and identical across threads", "[tokenizer]") {
  auto tok = aiperf::tok::load_tokenizer(kData + "qwen3");
  std::string text = "Concurrent tokenization of the same text gives the same ids. 你好, мир! 12345";
  auto expected = tok->encode(text);
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 200; ++k) mismatches[t] += tok->encode(text + std::to_string(k % 7)) !=
                                                      tok->encode(text + std::to_string(k % 7));
      mismatches[t] += tok->encode(text) != expected;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(mismatches == std::vector<int>(4, 0));
}
