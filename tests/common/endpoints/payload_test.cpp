#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoints/endpoint.h"

using namespace aiperf;
using endpoints::build_payload;
using endpoints::find_endpoint;
using endpoints::PayloadOptions;

namespace {

proto::Turn text_turn(std::vector<std::string> contents, std::string role = "",
                      std::optional<int64_t> max_tokens = std::nullopt) {
  proto::Turn turn;
  turn.set_role(std::move(role));
  proto::Text* text = turn.add_texts();
  text->set_name("text");
  for (auto& c : contents) text->add_contents(std::move(c));
  if (max_tokens) turn.set_max_tokens(*max_tokens);
  return turn;
}

PayloadOptions options(bool streaming = false) {
  PayloadOptions o;
  o.model = "llama";
  o.streaming = streaming;
  return o;
}

}  // namespace

TEST_CASE("chat payload: single text turn") {
  const proto::Turn turn = text_turn({"Hello there"}, "", 64);
  CHECK(build_payload(*find_endpoint("chat"), options(true), {&turn}, "", "") ==
        R"({"messages":[{"role":"user","name":"text","content":"Hello there"}],)"
        R"("model":"llama","stream":true,"max_completion_tokens":64})");
}

TEST_CASE("chat payload: history of two turns, system and user context, turn model") {
  const proto::Turn first = text_turn({"Q1"});
  const proto::Turn answer = text_turn({"A1"}, "assistant");
  proto::Turn second = text_turn({"part one", "", "part two"});
  second.set_model("other-model");
  CHECK(build_payload(*find_endpoint("chat"), options(), {&first, &answer, &second}, "Be brief.",
                      "Context here.") ==
        R"({"messages":[{"role":"system","content":"Be brief."},)"
        R"({"role":"user","content":"Context here."},)"
        R"({"role":"user","name":"text","content":"Q1"},)"
        R"({"role":"assistant","name":"text","content":"A1"},)"
        R"({"role":"user","content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]}],)"
        R"("model":"other-model","stream":false})");
}

TEST_CASE("chat payload: legacy max_tokens") {
  const proto::Turn turn = text_turn({"x"}, "", 10);
  PayloadOptions o = options();
  o.use_legacy_max_tokens = true;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","name":"text","content":"x"}],)"
        R"("model":"llama","stream":false,"max_tokens":10})");
}

TEST_CASE("chat payload: extras merged last, overriding in place and appending") {
  const proto::Turn turn = text_turn({"x"}, "", 10);
  const nlohmann::json extras = {{"max_completion_tokens", 99}, {"ignore_eos", true},
                                 {"temperature", 0.5}};
  PayloadOptions o = options();
  o.extra_inputs = &extras;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","name":"text","content":"x"}],)"
        R"("model":"llama","stream":false,"max_completion_tokens":99,"ignore_eos":true,"temperature":0.5})");
}

TEST_CASE("chat payload: include_usage when streaming with server token counts") {
  const proto::Turn turn = text_turn({"x"});
  PayloadOptions o = options(true);
  o.use_server_token_count = true;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","name":"text","content":"x"}],)"
        R"("model":"llama","stream":true,"stream_options":{"include_usage":true}})");

  SECTION("merged into stream_options given as extras") {
    const nlohmann::json extras = {{"stream_options", {{"continuous_usage_stats", true}}}};
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          R"({"messages":[{"role":"user","name":"text","content":"x"}],)"
          R"("model":"llama","stream":true,)"
          R"("stream_options":{"continuous_usage_stats":true,"include_usage":true}})");
  }
  SECTION("not when not streaming") {
    o.streaming = false;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "").find("stream_options") ==
          std::string::npos);
  }
}

TEST_CASE("completions payload: prompt list of the last turn's texts, max_tokens") {
  const proto::Turn earlier = text_turn({"ignored history"});
  proto::Turn turn = text_turn({"first", "second"}, "", 32);
  turn.add_texts()->add_contents("third");
  CHECK(build_payload(*find_endpoint("completions"), options(true), {&earlier, &turn}, "sys", "") ==
        R"({"prompt":["first","second","third"],"model":"llama","stream":true,"max_tokens":32})");
}

TEST_CASE("payload strings are JSON-escaped") {
  const proto::Turn turn = text_turn({"quote \" backslash \\ newline \n"});
  CHECK(build_payload(*find_endpoint("completions"), options(), {&turn}, "", "") ==
        R"({"prompt":["quote \" backslash \\ newline \n"],"model":"llama","stream":false})");
}
