// Output text pools: pieces that re-tokenize to exactly one token each.
#include <catch2/catch.hpp>
#include <map>
#include <numeric>

#include "server_fixture.h"
#include "text_pool.h"
#include "text_pool_loader.h"

using namespace aiperf::mock;
using aiperf::tok::TokenId;

namespace {

// Greedy longest-match tokenizer over a fixed vocabulary: enough to show which candidates the
// pool builder accepts and rejects.
class FakeTokenizer : public aiperf::tok::Tokenizer {
 public:
  explicit FakeTokenizer(std::vector<std::string> vocab) : vocab_(std::move(vocab)) {}

  std::vector<TokenId> encode(std::string_view text) const override {
    std::vector<TokenId> ids;
    for (size_t pos = 0; pos < text.size();) {
      TokenId best = -1;
      size_t best_len = 1;
      for (size_t id = 0; id < vocab_.size(); ++id) {
        const auto& v = vocab_[id];
        if (v.size() >= best_len && text.substr(pos, v.size()) == v && (best < 0 || v.size() > best_len)) {
          best = static_cast<TokenId>(id);
          best_len = v.size();
        }
      }
      ids.push_back(best);  // -1 for an unknown byte
      pos += best_len;
    }
    return ids;
  }
  std::string decode(std::span<const TokenId> ids, bool) const override {
    std::string text;
    for (TokenId id : ids) text += vocab_[static_cast<size_t>(id)];
    return text;
  }
  size_t vocab_size() const override { return vocab_.size(); }
  std::optional<TokenId> block_separator() const override { return std::nullopt; }

 private:
  std::vector<std::string> vocab_;
};

std::string concat(const TextPool& pool, size_t offset, size_t n) {
  std::string text;
  for (size_t i = 0; i < n; ++i) text += pool.piece(offset, i);
  return text;
}

}  // namespace

TEST_CASE("from_tokenizer keeps single-token lowercase words that do not merge") {
  const FakeTokenizer tokenizer({
      "!",         // not a " word"
      " the",      // kept
      " of",       // kept
      " Cat",      // uppercase: rejected
      " and",      // merges with itself: rejected
      " and and",  // the merge
      " of to",    // makes " to" merge with its predecessor " of"
      " to",       // rejected
      " the",      // duplicate: encodes to the first id, rejected
      " is",       // kept
  });
  const TextPool pool = TextPool::from_tokenizer(tokenizer);
  REQUIRE(pool.size() == 3);
  CHECK(concat(pool, 0, 3) == " the of is");
  CHECK(concat(pool, 2, 4) == " is the of is");  // cycles from any offset
  CHECK(tokenizer.count(concat(pool, 1, 50)) == 50);
}

TEST_CASE("from_tokenizer refuses a vocabulary without usable pieces") {
  CHECK_THROWS_AS(TextPool::from_tokenizer(FakeTokenizer({"a", "b", " X"})), std::runtime_error);
}

TEST_CASE("built-in words are distinct space-prefixed lowercase words") {
  const TextPool pool = TextPool::builtin_words();
  CHECK(pool.size() >= 100);
  std::map<std::string, int> seen;
  for (size_t i = 0; i < pool.size(); ++i) {
    const std::string piece(pool.piece(0, i));
    CHECK(piece.size() >= 2);
    CHECK(piece[0] == ' ');
    CHECK(piece.find_first_not_of("abcdefghijklmnopqrstuvwxyz", 1) == std::string::npos);
    CHECK(++seen[piece] == 1);
  }
}

TEST_CASE("a GPT-2 pool re-tokenizes to exactly one token per piece") {
  MockConfig config;
  config.tokenizer = "gpt2";
  const TextPool pool = load_text_pool(config);
  const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  CHECK(pool.size() > 100);
  for (size_t offset : {0, 17, 999}) CHECK(tokenizer->count(concat(pool, offset, 50)) == 50);
  CHECK(tokenizer->count(concat(pool, 3, pool.size() + 5)) == pool.size() + 5);

  // The --no-tokenizer words are single GPT-2 tokens too.
  const TextPool words = TextPool::builtin_words();
  CHECK(tokenizer->count(concat(words, 0, words.size())) == words.size());
}

TEST_CASE("a streamed 50-token response is 50 GPT-2 tokens of text") {
  using namespace aiperf::mock::test;
  MockConfig config = fast_config();
  config.no_tokenizer = false;
  ServerFixture fixture(config, load_text_pool(config));
  const auto streamed = fixture.client().send_streaming(make_request(
      http::verb::post, "/v1/chat/completions",
      R"({"messages":[{"role":"user","content":"Tell me a story."}],"max_completion_tokens":50,"ignore_eos":true,"stream":true})"));
  REQUIRE(streamed.chunks.size() == 51);
  std::string content;
  for (size_t i = 0; i < 50; ++i) content += event_json(streamed.chunks[i])["choices"][0]["delta"]["content"];
  const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  CHECK(tokenizer->count(content) == 50);
}

