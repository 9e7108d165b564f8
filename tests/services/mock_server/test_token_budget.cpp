// Prompt counting and output-length rules (spec §8.1), and request parsing.
#include <catch2/catch.hpp>

#include "generation_request.h"
#include "token_budget.h"

using namespace aiperf::mock;

TEST_CASE("prompt tokens are counted by characters, absorbing a nearby space") {
  CHECK(count_prompt_tokens("") == 0);
  CHECK(count_prompt_tokens("abc") == 1);
  CHECK(count_prompt_tokens("abcd") == 1);
  CHECK(count_prompt_tokens("abcde") == 2);
  CHECK(count_prompt_tokens("abcd efgh") == 2);    // "abcd " + "efgh"
  CHECK(count_prompt_tokens("abcdef ghij") == 3);  // no space within 2 chars of "abcd"
  CHECK(count_prompt_tokens("hello world, this is a test") == 6);
  CHECK(count_prompt_tokens(std::string(400, 'x')) == 100);
}

TEST_CASE("output plan follows max, min and ignore_eos") {
  SECTION("ignore_eos gives exactly max") {
    const auto plan = plan_output({5, std::nullopt, true}, 100, 12345);
    CHECK(plan.tokens == 5);
    CHECK(plan.hit_limit);
  }
  SECTION("default budget is [max(1, 0.8*prompt), max(2*prompt, 16)], chosen by hash") {
    // prompt 10 => [8, 20], 13 possible lengths
    CHECK(plan_output({}, 10, 0).tokens == 8);
    CHECK_FALSE(plan_output({}, 10, 0).hit_limit);
    CHECK(plan_output({}, 10, 12).tokens == 20);
    CHECK(plan_output({}, 10, 12).hit_limit);
    CHECK(plan_output({}, 10, 13).tokens == 8);
    CHECK(plan_output({}, 0, 15).tokens == 16);  // empty prompt => [1, 16]
    CHECK(plan_output({}, 0, 0).tokens == 1);
  }
  SECTION("min_tokens raises the floor and is clamped to max") {
    CHECK(plan_output({20, 20, false}, 10, 999).tokens == 20);
    CHECK(plan_output({20, 50, false}, 10, 999).tokens == 20);
    CHECK(plan_output({5, std::nullopt, false}, 100, 999).tokens == 5);  // 0.8*prompt > max
    CHECK(plan_output({5, 0, false}, 100, 0).tokens == 1);               // never empty
  }
}

TEST_CASE("request parsing picks the fields the response needs") {
  SECTION("chat counts only user text and prefers max_completion_tokens") {
    const auto parsed = parse_generation_request(Api::chat, R"({
      "model": "a\"b", "stream": true, "stream_options": {"include_usage": true},
      "max_completion_tokens": 9, "max_tokens": 3, "ignore_eos": true,
      "messages": [{"role": "system", "content": "abcdefgh"},
                   {"role": "user", "content": [{"type": "text", "text": "abcd"},
                                                {"type": "image_url", "image_url": {"url": "x"}}]},
                   {"role": "assistant", "content": "abcd"},
                   {"role": "user", "content": "abcd"}]})");
    const auto& request = std::get<GenerationRequest>(parsed);
    CHECK(request.model_json == R"("a\"b")");
    CHECK(request.stream);
    CHECK(request.include_usage);
    CHECK(request.prompt_tokens == 2);
    CHECK(request.output_tokens == 9);
  }
  SECTION("completions take max_tokens and a list prompt") {
    const auto parsed = parse_generation_request(
        Api::completions, R"({"prompt": ["abcd", "efgh"], "max_tokens": 4, "ignore_eos": true})");
    const auto& request = std::get<GenerationRequest>(parsed);
    CHECK(request.prompt_tokens == 2);
    CHECK(request.output_tokens == 4);
    CHECK_FALSE(request.stream);
  }
  SECTION("bad requests name the problem") {
    auto message = [](Api api, const char* body) {
      return std::get<BadRequest>(parse_generation_request(api, body)).message;
    };
    CHECK(message(Api::chat, "[") == "request body is not valid JSON");
    CHECK(message(Api::chat, "[]") == "request body must be a JSON object");
    CHECK(message(Api::chat, "{}") == "'messages' must be an array");
    CHECK(message(Api::completions, "{}") == "'prompt' is required");
    CHECK(message(Api::chat, R"({"messages": [], "max_tokens": "5"})") == "'max_tokens' must be an integer");
    CHECK(message(Api::chat, R"({"messages": [], "max_tokens": 0})") == "'max_tokens' is out of range");
  }
}
