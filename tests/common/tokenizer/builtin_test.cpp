// `--tokenizer builtin` (the bundled o200k_base), the tiktoken names AIPerf accepts, and its
// placeholder-model-name rule (aiperf/common/tokenizer_fake_names.py).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tokenizer/builtin_tokenizer.h"
#include "tokenizer/tiktoken_tokenizer.h"
#include "tokenizer/tokenizer.h"

using aiperf::tok::TokenId;

namespace {

const std::string kTiktoken = AIPERF_TIKTOKEN_DIR;

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

TEST_CASE("builtin resolves to the bundled o200k_base without any user file", "[tokenizer][builtin]") {
  aiperf::tok::HubEnv env;  // no TIKTOKEN_ENCODINGS_BASE, no Hub: only the bundled directory
  const std::string path = aiperf::tok::resolve_tokenizer_path("builtin", "main", false, env);
  CHECK(ends_with(path, "/share/aiperf/tokenizers/o200k_base.tiktoken"));
  // Bundled beside builtin: the other encodings AIPerf accepts by name and we ship.
  CHECK(ends_with(aiperf::tok::resolve_tokenizer_path("cl100k_base", "main", false, env),
                  "/share/aiperf/tokenizers/cl100k_base.tiktoken"));
  CHECK(ends_with(aiperf::tok::resolve_tokenizer_path("r50k_base", "main", false, env),
                  "/share/aiperf/tokenizers/r50k_base.tiktoken"));

  // Ids from tests/data/tokenizer/golden-o200k_base.jsonl (tiktoken 1.0.22).
  auto tok = aiperf::tok::load_tokenizer(path);
  CHECK(tok->encode("Hello world") == std::vector<TokenId>{13225, 2375});
  CHECK(tok->encode(" Hello world") == std::vector<TokenId>{32949, 2375});
  CHECK(tok->encode("The quick brown fox jumps over the lazy dog.") ==
        std::vector<TokenId>{976, 4853, 19705, 68347, 65613, 1072, 290, 29082, 6446, 13});
  CHECK(tok->encode("Q: What is 2+2?\nA: 4.") ==
        std::vector<TokenId>{48, 25, 4614, 382, 220, 17, 10, 17, 3901, 32, 25, 220, 19, 13});
  CHECK(tok->encode("x² + y³ = z⁴") == std::vector<TokenId>{87, 13848, 659, 342, 45681, 314, 579, 37127, 112});
  CHECK(tok->block_separator() == 199999);
  CHECK(tok->vocab_size() == 200019);
}

TEST_CASE("tiktoken encode is allowed_special=all as AIPerf calls it; encode_ordinary is plain",
          "[tokenizer][builtin]") {
  aiperf::tok::TiktokenTokenizer tok(kTiktoken + "/o200k_base.tiktoken");
  // The golden (encode_ordinary) ids of "abc<|endoftext|>def" are abc < | end of text | > def.
  CHECK(tok.encode_ordinary("abc<|endoftext|>def") ==
        std::vector<TokenId>{26682, 27, 91, 419, 1440, 919, 91, 29, 1314});
  CHECK(tok.encode("abc<|endoftext|>def") == std::vector<TokenId>{26682, 199999, 1314});
  CHECK(tok.encode("<|endoftext|><|endofprompt|>") == std::vector<TokenId>{199999, 200018});
  CHECK(tok.encode("<|endoftext|>") == std::vector<TokenId>{199999});
  // Not a special of o200k_base: plain text.
  CHECK(tok.encode("<|fim_prefix|>") == tok.encode_ordinary("<|fim_prefix|>"));
  CHECK(tok.encode("<|") == std::vector<TokenId>{27, 91});
  CHECK(tok.encode("").empty());
}

TEST_CASE("builtin and the tiktoken names AIPerf accepts", "[tokenizer][builtin]") {
  using aiperf::tok::is_tiktoken_encoding_name;
  for (const char* n : {"cl100k_base", "o200k_base", "o200k_harmony", "p50k_base", "p50k_edit", "r50k_base"}) {
    CHECK(is_tiktoken_encoding_name(n));
  }
  CHECK_FALSE(is_tiktoken_encoding_name("gpt2"));  // a Hub model name
  CHECK_FALSE(is_tiktoken_encoding_name("builtin"));
  CHECK_FALSE(is_tiktoken_encoding_name("O200K_BASE"));
  CHECK(aiperf::tok::builtin_encoding_for("builtin") == "o200k_base");
  CHECK(aiperf::tok::builtin_encoding_for("cl100k_base") == "cl100k_base");

  aiperf::tok::HubEnv env;
  CHECK_THROWS_WITH(aiperf::tok::resolve_tokenizer_path("o200k_harmony", "main", false, env),
                    "tokenizer 'o200k_harmony': this tiktoken encoding is not supported; use builtin "
                    "(o200k_base), o200k_base, cl100k_base, r50k_base or p50k_base");
  CHECK_THROWS_WITH(aiperf::tok::resolve_tokenizer_path("p50k_base", "main", false, env),
                    Catch::StartsWith("tokenizer 'p50k_base': no p50k_base.tiktoken found"));
}

TEST_CASE("placeholder model names follow AIPerf's rule", "[tokenizer][builtin]") {
  using aiperf::tok::is_fake_model_name;
  // The reference docstring's examples.
  CHECK(is_fake_model_name("mock-llama"));
  CHECK(is_fake_model_name("Test_Model_v2"));
  CHECK_FALSE(is_fake_model_name("Qwen/Qwen3-0.6B"));
  CHECK_FALSE(is_fake_model_name("./local-model"));
  // Exact words, case-insensitive.
  for (const char* n : {"test", "mock", "fake", "dummy", "example", "sample", "placeholder", "MOCK", "Dummy"}) {
    CHECK(is_fake_model_name(n));
  }
  // Markers anywhere, with _ read as -.
  for (const char* n : {"mock-model", "test-model", "fake-model", "llama-mock", "gpt-fake", "my_model", "your-model-7b",
                        "some-model-name", "model-id", "qwen-test-model", "MOCK_GPT"}) {
    CHECK(is_fake_model_name(n));
  }
  // Real names and near misses.
  for (const char* n : {"", "gpt2", "contestant", "mockingbird", "testmodel", "test-llama", "sample-7b",
                        "gpt-4o", "llama3", "models", "examples", "placeholder2"}) {
    CHECK_FALSE(is_fake_model_name(n));
  }
  // Path-like names are never placeholders.
  for (const char* n : {"org/mock-model", "C:\\mock-model", ".mock-model", "~mock-model", "/tmp/test-model"}) {
    CHECK_FALSE(is_fake_model_name(n));
  }
  CHECK(aiperf::tok::placeholder_model_warning("mock-model") ==
        "Model name 'mock-model' looks like a placeholder; defaulting tokenizer to 'builtin' (tiktoken "
        "o200k_base). Pass --tokenizer <name> to override.");
}
