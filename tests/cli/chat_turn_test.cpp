// `aiperf chat`'s pure parts: the endpoint URL, the chunks of a reply and the stats block.
#include <catch2/catch.hpp>

#include "chat_turn.h"

using namespace aiperf::cli::chat;

TEST_CASE("chat: a base URL resolves to the chat-completions endpoint as AIPerf's does") {
  CHECK(chat_completions_url("localhost:8000") == "http://localhost:8000/v1/chat/completions");
  CHECK(chat_completions_url("http://h:1/") == "http://h:1/v1/chat/completions");
  CHECK(chat_completions_url("https://h/openai/v1") == "https://h/openai/v1/chat/completions");
  CHECK(chat_completions_url("http://h/v1/chat/completions/") == "http://h/v1/chat/completions");
  CHECK(chat_completions_url("http://h/openai") == "http://h/openai/v1/chat/completions");
}

TEST_CASE("chat: content and reasoning pieces with their times, the last usage kept") {
  Reply r;
  CHECK(add_chunk(r, R"({"choices":[{"delta":{"role":"assistant"}}]})", 5) == std::pair<std::string, std::string>{});
  CHECK(add_chunk(r, R"({"choices":[{"delta":{"reasoning_content":"hm"}}]})", 10).second == "hm");
  CHECK(add_chunk(r, R"({"choices":[{"delta":{"reasoning":"m"}}]})", 15).second == "m");
  CHECK(add_chunk(r, R"({"choices":[{"delta":{"content":"Hi"}}]})", 20).first == "Hi");
  CHECK(add_chunk(r, "[DONE]", 25) == std::pair<std::string, std::string>{});
  CHECK(add_chunk(r,
                  R"({"choices":[],"usage":{"prompt_tokens":40,"completion_tokens":3,)"
                  R"("prompt_tokens_details":{"cached_tokens":30}}})",
                  30) == std::pair<std::string, std::string>{});
  CHECK(r.piece_ns == std::vector<int64_t>{10, 15, 20});
  CHECK(r.content == "Hi");
  CHECK(r.reasoning == "hmm");
  REQUIRE(r.usage);

  // Sent at 0: TTFT to the first piece (10 ns), latency to the last (20 ns), 4 tokens.
  const TurnStats s = turn_stats(r, 0, 1, 3);
  CHECK(*s.ttft_ns == 10);
  CHECK(*s.latency_ns == 20);
  CHECK(*s.osl == 4);
  CHECK(*s.itl_ns == Approx(10.0 / 3));
  CHECK(*s.isl == 40);
  CHECK(*s.cache_read == 30);
}

TEST_CASE("chat: the stats block, lines shown when their numbers exist") {
  TurnStats s;
  CHECK(format_stats(s) == "(no tokens received)");
  s.ttft_ns = 32'720'000;
  s.latency_ns = 68'400'000;
  s.osl = 9;
  CHECK(format_stats(s) == "TTFT: 32.72 ms\nTPS:  131.58 tokens/s (9 tokens in 0.07s)");
  s.itl_ns = 4'460'000;
  s.reasoning_tokens = 2;
  s.isl = 40;
  s.cache_read = 0;
  CHECK(format_stats(s) ==
        "TTFT: 32.72 ms\nTPS:  131.58 tokens/s (9 tokens, 2 reasoning in 0.07s)\n"
        "ITL:  4.46 ms/token (decode 224.22 tokens/s)\nCache: 0/40 prompt tokens cached (0.0%)");
  s.osl = 0;
  CHECK(format_stats(s) == "(no tokens received)");
}
