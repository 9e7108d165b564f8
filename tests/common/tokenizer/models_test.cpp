// WordPiece and Unigram models and the BERT components on tiny hand-written tokenizer.json
// files. Every expected id list was also produced by HF tokenizers 0.23.2 (npm) on the same
// JSON; the comments say why each result is what HF's algorithm gives.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tokenizer/tokenizer.h"

using aiperf::tok::TokenId;
using aiperf::tok::TokenizerError;
using Ids = std::vector<TokenId>;
namespace fs = std::filesystem;

namespace {

aiperf::tok::TokenizerPtr load_json(const std::string& name, const nlohmann::json& j) {
  fs::path dir = fs::temp_directory_path() / ("aiperf_tokm_" + name + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "tokenizer.json") << j.dump();
  return aiperf::tok::load_tokenizer(dir.string());
}

// Lowercasing BERT pipeline over a 14-entry WordPiece vocab.
nlohmann::json tiny_wordpiece(int max_chars) {
  return {{"version", "1.0"},
          {"added_tokens", nlohmann::json::array()},
          {"normalizer",
           {{"type", "BertNormalizer"}, {"clean_text", true}, {"handle_chinese_chars", true},
            {"strip_accents", nullptr}, {"lowercase", true}}},
          {"pre_tokenizer", {{"type", "BertPreTokenizer"}}},
          {"decoder", {{"type", "WordPiece"}, {"prefix", "##"}, {"cleanup", true}}},
          {"model",
           {{"type", "WordPiece"},
            {"unk_token", "[UNK]"},
            {"continuing_subword_prefix", "##"},
            {"max_input_chars_per_word", max_chars},
            {"vocab",
             {{"[UNK]", 0}, {"un", 1}, {"##aff", 2}, {"##able", 3}, {"a", 4}, {"##ff", 5}, {",", 6},
              {"\xE4\xB8\xAD", 7}, {"do", 8}, {"not", 9}, {"##n", 10}, {"'", 11}, {"t", 12}, {"x", 13}}}}}};
}

// Metaspace + Unigram; "<0x78>" (x) and "<0xC3>" are the only byte pieces.
nlohmann::json tiny_unigram(bool byte_fallback) {
  auto meta = nlohmann::json{{"type", "Metaspace"}, {"replacement", "\xE2\x96\x81"}, {"prepend_scheme", "always"},
                             {"split", true}};
  return {{"version", "1.0"},
          {"added_tokens", nlohmann::json::array()},
          {"normalizer", nullptr},
          {"pre_tokenizer", meta},
          {"decoder", meta},
          {"model",
           {{"type", "Unigram"},
            {"unk_id", 0},
            {"byte_fallback", byte_fallback},
            {"vocab", nlohmann::json::parse(R"([["<unk>",0],["▁",-1],["a",-1.5],["b",-2],["ab",-3],["▁ab",-3],
                                                ["c",-4],["bc",-4.5],["<0x78>",-20],["<0xC3>",-20]])")}}}};
}

}  // namespace

TEST_CASE("wordpiece takes the longest vocab match first, continuing with ##", "[tokenizer][wordpiece]") {
  auto tok = load_json("wp", tiny_wordpiece(100));
  CHECK(tok->encode("unaffable") == Ids{1, 2, 3});  // un ##aff ##able
  // Lowercased; the comma is its own pre-token; "aff" starts a word, so a + ##ff.
  CHECK(tok->encode("UnAffable, aff") == Ids{1, 2, 3, 6, 4, 5});
  // Accent stripped (strip_accents follows lowercase); "abx" has no ##x, so the whole word is unk.
  CHECK(tok->encode("\xC3\x9Cnaff abx") == Ids{1, 2, 0});
  // CJK ideographs become single-character words; the unknown one is unk alone.
  CHECK(tok->encode("\xE4\xB8\xAD\xE6\x96\x87x") == Ids{7, 0, 13});
  CHECK(tok->decode(Ids{1, 2, 3, 6, 4, 5}) == "unaffable, aff");  // " ," cleaned up
  // Cleanup works token by token, so " do not" spanning two tokens is left alone.
  auto ids = tok->encode("do not don't");
  CHECK(ids == Ids{8, 9, 8, 10, 11, 12});
  CHECK(tok->decode(ids) == "do not don ' t");
}

TEST_CASE("wordpiece words longer than max_input_chars_per_word are one unk", "[tokenizer][wordpiece]") {
  auto tok = load_json("wpmax", tiny_wordpiece(5));
  CHECK(tok->encode("unaffable aff") == Ids{0, 4, 5});
  CHECK(tok->vocab_size() == 14);
}

TEST_CASE("unigram picks the best-scoring segmentation, first found on ties", "[tokenizer][unigram]") {
  auto tok = load_json("ug", tiny_unigram(false));
  CHECK(tok->encode("ab") == Ids{5});  // ▁ab (-3) beats ▁ + ab (-4) and ▁ + a + b (-4.5)
  // ▁ab + c and ▁ + a + bc both score -7; the path reaching the end first (bc, from the
  // earlier start) is kept because later candidates must be strictly better.
  CHECK(tok->encode("abc") == Ids{1, 2, 7});
  CHECK(tok->encode("abbc") == Ids{5, 7});
  CHECK(tok->encode("ab ab") == Ids{5, 5});
  // Unknown characters cost (lowest score - 10) each and consecutive ones fuse into one unk.
  CHECK(tok->encode("xxab") == Ids{1, 0, 4});
  CHECK(tok->decode(Ids{1, 0, 4}) == "<unk>ab");
  CHECK(tok->decode(Ids{5, 5}) == "ab ab");
}

TEST_CASE("unigram byte_fallback spells unknown runs in <0xXX> pieces when all exist", "[tokenizer][unigram]") {
  auto tok = load_json("ugbf", tiny_unigram(true));
  CHECK(tok->encode("xxab") == Ids{1, 8, 8, 4});  // the fused run "xx" as two <0x78>
  CHECK(tok->encode("\xC3\xA9" "ab") == Ids{1, 0, 4});  // é needs <0xA9> too: unk
  CHECK(tok->encode("x\xC3\xA9" "a") == Ids{1, 0, 2});  // the run "xé" falls back as a whole
}

TEST_CASE("unsupported models and components are named with the file", "[tokenizer]") {
  auto expect_error = [](const std::string& name, const nlohmann::json& j, const std::string& what) {
    try {
      load_json(name, j);
      FAIL("expected TokenizerError for " << what);
    } catch (const TokenizerError& e) {
      std::string msg = e.what();
      CHECK_THAT(msg, Catch::Contains(what));
      CHECK_THAT(msg, Catch::Contains("aiperf_tokm_" + name));
      CHECK_THAT(msg, Catch::Contains("tokenizer.json"));
    }
  };
  auto j = tiny_wordpiece(100);
  j["model"]["type"] = "WordLevel";
  expect_error("wordlevel", j, "unsupported model type 'WordLevel'");
  j = tiny_wordpiece(100);
  j["decoder"] = {{"type", "CTC"}};
  expect_error("ctc", j, "unsupported decoder type 'CTC'");
  j = tiny_unigram(false);
  j["normalizer"] = {{"type", "Sequence"}, {"normalizers", {{{"type", "NFKC"}}, {{"type", "Unicase"}}}}};
  expect_error("unicase", j, "unsupported normalizer type 'Unicase'");
  j = tiny_unigram(false);
  j["normalizer"] = {{"type", "Precompiled"}, {"precompiled_charsmap", "not base64!"}};
  expect_error("precompiled", j, "Precompiled precompiled_charsmap is not valid base64");
  j = tiny_wordpiece(100);
  j["model"]["unk_token"] = "<missing>";
  expect_error("wpunk", j, "WordPiece unk_token '<missing>' is not in the vocab");
}
