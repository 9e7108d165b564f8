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

TEST_CASE("chat payload: single text turn, no name, include_usage when streaming") {
  const proto::Turn turn = text_turn({"Hello there"}, "", 64);
  CHECK(build_payload(*find_endpoint("chat"), options(true), {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":"Hello there"}],)"
        R"("model":"llama","stream":true,"max_completion_tokens":64,"stream_options":{"include_usage":true}})");
}

TEST_CASE("chat payload: history of two turns, system and user context, turn model") {
  const proto::Turn first = text_turn({"Q1"});
  const proto::Turn answer = text_turn({"A1"}, "assistant");
  proto::Turn second = text_turn({"part one", "", "part two"});
  second.set_model("other-model");
  CHECK(build_payload(*find_endpoint("chat"), options(), {&first, &answer, &second}, "Be brief.", "Context here.") ==
        R"({"messages":[{"role":"system","content":"Be brief."},)"
        R"({"role":"user","content":"Context here."},)"
        R"({"role":"user","content":"Q1"},)"
        R"({"role":"assistant","content":"A1"},)"
        R"({"role":"user","content":[{"type":"text","text":"part one"},{"type":"text","text":"part two"}]}],)"
        R"("model":"other-model","stream":false})");
}

TEST_CASE("chat payload: legacy max_tokens") {
  const proto::Turn turn = text_turn({"x"}, "", 10);
  PayloadOptions o = options();
  o.use_legacy_max_tokens = true;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":"x"}],)"
        R"("model":"llama","stream":false,"max_tokens":10})");
}

TEST_CASE("chat payload: extras merged last, overriding in place and appending") {
  const proto::Turn turn = text_turn({"x"}, "", 10);
  const nlohmann::json extras = {{"max_completion_tokens", 99}, {"ignore_eos", true},
                                 {"temperature", 0.5}};
  PayloadOptions o = options();
  o.extra_inputs = &extras;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":"x"}],)"
        R"("model":"llama","stream":false,"max_completion_tokens":99,"ignore_eos":true,"temperature":0.5})");
}

TEST_CASE("genai-perf front end: GenAI-Perf 0.0.16's bodies, no stream_options, a completions prompt list") {
  const proto::Turn turn = text_turn({"x"}, "", 8);
  PayloadOptions o = options(true);
  o.genai_perf = true;
  o.use_legacy_max_tokens = true;
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":"x"}],"model":"llama","stream":true,"max_tokens":8})");
  CHECK(build_payload(*find_endpoint("completions"), o, {&turn}, "", "") ==
        R"({"prompt":["x"],"model":"llama","stream":true,"max_tokens":8})");
  o.genai_perf = false;  // AIPerf 0.13: one prompt as a string, the usage chunk asked for
  CHECK(build_payload(*find_endpoint("completions"), o, {&turn}, "", "") ==
        R"({"prompt":"x","model":"llama","stream":true,"max_tokens":8,"stream_options":{"include_usage":true}})");
}

TEST_CASE("chat payload: stream_options on every streaming request (AIPerf 0.13)") {
  const proto::Turn turn = text_turn({"x"});
  PayloadOptions o = options(true);
  const std::string head = R"({"messages":[{"role":"user","content":"x"}],"model":"llama",)";
  CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
        head + R"("stream":true,"stream_options":{"include_usage":true}})");

  SECTION("with server token counts the same") {
    o.use_server_token_count = true;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"include_usage":true}})");
  }
  SECTION("--per-chunk-usage adds continuous_usage_stats") {
    o.use_server_token_count = true;
    o.per_chunk_usage = true;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"include_usage":true,"continuous_usage_stats":true}})");
  }
  SECTION("merged into the author's stream_options, in place, their keys first") {
    const nlohmann::json extras = {{"stream_options", {{"continuous_usage_stats", true}}}, {"top_k", 5}};
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"continuous_usage_stats":true,"include_usage":true},"top_k":5})");
  }
  SECTION("the author's key order kept (a turn's extra body)") {
    proto::Turn body_turn = turn;
    body_turn.set_extra_body(R"({"stream_options":{"zeta":1,"alpha":2},"seed":3})");
    o.per_chunk_usage = true;
    CHECK(build_payload(*find_endpoint("chat"), o, {&body_turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"zeta":1,"alpha":2,"include_usage":true,)"
                 R"("continuous_usage_stats":true},"seed":3})");
  }
  SECTION("an explicit include_usage false (or continuous_usage_stats false) is kept") {
    const nlohmann::json extras = {{"stream_options", {{"include_usage", false}, {"continuous_usage_stats", false}}}};
    o.extra_inputs = &extras;
    o.per_chunk_usage = true;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"continuous_usage_stats":false,"include_usage":false}})");
  }
  SECTION("an explicit null counts as absent, filled where it stands") {
    const nlohmann::json extras = {{"stream_options", nullptr}, {"temperature", 0}};
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"include_usage":true},"temperature":0})");
  }
  SECTION("a stream_options that is not an object is left alone") {
    const nlohmann::json extras = {{"stream_options", "off"}};
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":"off"})");
  }
  SECTION("stream overridden to false by --extra-inputs: no stream_options") {
    const nlohmann::json extras = {{"stream", false}};
    o.extra_inputs = &extras;
    o.use_server_token_count = true;
    o.per_chunk_usage = true;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") == head + R"("stream":false})");
  }
  SECTION("stream turned on by --extra-inputs: asked for as well") {
    const nlohmann::json extras = {{"stream", true}};
    o.streaming = false;
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":true,"stream_options":{"include_usage":true}})");
  }
  SECTION("not when not streaming, author's stream_options passed as given") {
    o.streaming = false;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") == head + R"("stream":false})");
    const nlohmann::json extras = {{"stream_options", {{"x", 1}}}};
    o.extra_inputs = &extras;
    CHECK(build_payload(*find_endpoint("chat"), o, {&turn}, "", "") ==
          head + R"("stream":false,"stream_options":{"x":1}})");
  }
}

TEST_CASE("chat payload: a named text still goes without its name") {
  proto::Turn turn = text_turn({"hi"});
  turn.mutable_texts(0)->set_name("query");
  CHECK(build_payload(*find_endpoint("chat"), options(), {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":"hi"}],"model":"llama","stream":false})");
}

TEST_CASE("completions payload: a single prompt is a bare string, include_usage when streaming") {
  const proto::Turn turn = text_turn({"", "only"}, "", 8);
  CHECK(build_payload(*find_endpoint("completions"), options(true), {&turn}, "", "") ==
        R"({"prompt":"only","model":"llama","stream":true,"max_tokens":8,"stream_options":{"include_usage":true}})");
  CHECK(build_payload(*find_endpoint("completions"), options(false), {&turn}, "", "") ==
        R"({"prompt":"only","model":"llama","stream":false,"max_tokens":8})");

  SECTION("no prompt at all: an empty list") {
    const proto::Turn empty = text_turn({""});
    CHECK(build_payload(*find_endpoint("completions"), options(), {&empty}, "", "") ==
          R"({"prompt":[],"model":"llama","stream":false})");
  }
  SECTION("max_tokens 0 is not sent") {
    const proto::Turn zero = text_turn({"p"}, "", 0);
    CHECK(build_payload(*find_endpoint("completions"), options(), {&zero}, "", "") ==
          R"({"prompt":"p","model":"llama","stream":false})");
  }
  SECTION("author's stream_options merged; never continuous_usage_stats (chat only)") {
    const nlohmann::json extras = {{"stream_options", {{"include_usage", false}, {"foo", "bar"}}}};
    PayloadOptions o = options(true);
    o.extra_inputs = &extras;
    o.per_chunk_usage = true;
    CHECK(build_payload(*find_endpoint("completions"), o, {&turn}, "", "") ==
          R"({"prompt":"only","model":"llama","stream":true,"max_tokens":8,)"
          R"("stream_options":{"foo":"bar","include_usage":false}})");
  }
  SECTION("null stream_options counts as absent; stream false from the extras: none") {
    const nlohmann::json null_so = {{"stream_options", nullptr}};
    PayloadOptions o = options(true);
    o.extra_inputs = &null_so;
    CHECK(build_payload(*find_endpoint("completions"), o, {&turn}, "", "") ==
          R"({"prompt":"only","model":"llama","stream":true,"max_tokens":8,"stream_options":{"include_usage":true}})");
    const nlohmann::json off = {{"stream", false}};
    o.extra_inputs = &off;
    CHECK(build_payload(*find_endpoint("completions"), o, {&turn}, "", "") ==
          R"({"prompt":"only","model":"llama","stream":false,"max_tokens":8})");
  }
}

TEST_CASE("completions payload: prompt list of the last turn's texts, max_tokens") {
  const proto::Turn earlier = text_turn({"ignored history"});
  proto::Turn turn = text_turn({"first", "second"}, "", 32);
  turn.add_texts()->add_contents("third");
  CHECK(build_payload(*find_endpoint("completions"), options(true), {&earlier, &turn}, "sys", "") ==
        R"({"prompt":["first","second","third"],"model":"llama","stream":true,"max_tokens":32,)"
        R"("stream_options":{"include_usage":true}})");
}

TEST_CASE("payload strings are JSON-escaped") {
  const proto::Turn turn = text_turn({"quote \" backslash \\ newline \n"});
  CHECK(build_payload(*find_endpoint("completions"), options(), {&turn}, "", "") ==
        R"({"prompt":"quote \" backslash \\ newline \n","model":"llama","stream":false})");
}

namespace {

proto::Turn named_texts(std::initializer_list<std::pair<std::string, std::vector<std::string>>> batches) {
  proto::Turn turn;
  for (const auto& [name, contents] : batches) {
    proto::Text* text = turn.add_texts();
    text->set_name(name);
    for (const auto& c : contents) text->add_contents(c);
  }
  return turn;
}

}  // namespace

TEST_CASE("chat payload: media parts and verbatim trace messages with tools") {
  proto::Turn turn = text_turn({"Look"});
  turn.add_images()->add_contents("data:image/png;base64,AAA");
  turn.add_audios()->add_contents("wav,UklG");
  turn.add_videos()->add_contents("https://x/v.webm");
  CHECK(build_payload(*find_endpoint("chat"), options(), {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":[{"type":"text","text":"Look"},)"
        R"({"type":"image_url","image_url":{"url":"data:image/png;base64,AAA"}},)"
        R"({"type":"input_audio","input_audio":{"data":"UklG","format":"wav"}},)"
        R"({"type":"video_url","video_url":{"url":"https://x/v.webm"}}]}],"model":"llama","stream":false})");

  proto::Turn raw;
  raw.set_raw_messages(R"([{"role":"user","content":"Hi"}])");
  raw.set_raw_tools(R"([{"type":"function"}])");
  raw.set_max_tokens(4);
  CHECK(build_payload(*find_endpoint("chat"), options(), {&raw}, "ignored", "") ==
        R"({"messages":[{"role":"user","content":"Hi"}],"model":"llama","stream":false,)"
        R"("tools":[{"type":"function"}],"max_completion_tokens":4})");
}

TEST_CASE("embeddings payloads: plain, NIM with images, chat-style") {
  nlohmann::json extra = {{"encoding_format", "float"}};
  PayloadOptions o = options();
  o.extra_inputs = &extra;
  const proto::Turn turn = text_turn({"a", "b"}, "", 9);
  CHECK(build_payload(*find_endpoint("embeddings"), o, {&turn}, "", "") ==
        R"({"model":"llama","input":["a","b"],"encoding_format":"float"})");

  proto::Turn mm = text_turn({"cat"});
  mm.add_images()->add_contents("data:image/png;base64,X");
  CHECK(build_payload(*find_endpoint("nim_embeddings"), options(), {&mm}, "", "") ==
        R"({"model":"llama","input":["cat data:image/png;base64,X"]})");

  CHECK(build_payload(*find_endpoint("chat_embeddings"), options(), {&turn}, "", "") ==
        R"({"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}],)"
        R"("model":"llama"})");
}

TEST_CASE("rankings payloads read query and passages by name") {
  const proto::Turn turn = named_texts({{"passages", {"p1", "p2"}}, {"query", {"q"}}, {"other", {"x"}}});
  CHECK(build_payload(*find_endpoint("nim_rankings"), options(), {&turn}, "", "") ==
        R"({"model":"llama","query":{"text":"q"},"passages":[{"text":"p1"},{"text":"p2"}]})");
  CHECK(build_payload(*find_endpoint("cohere_rankings"), options(), {&turn}, "", "") ==
        R"({"model":"llama","query":"q","documents":["p1","p2"]})");
  CHECK(build_payload(*find_endpoint("hf_tei_rankings"), options(), {&turn}, "", "") ==
        R"({"query":"q","texts":["p1","p2"]})");
}

TEST_CASE("huggingface_generate payload: extras go inside parameters") {
  nlohmann::json extra = {{"temperature", 0.5}};
  PayloadOptions o = options(true);
  o.extra_inputs = &extra;
  const proto::Turn turn = text_turn({"one", "two"}, "", 12);
  CHECK(build_payload(*find_endpoint("huggingface_generate"), o, {&turn}, "", "") ==
        R"({"inputs":"one two","parameters":{"max_new_tokens":12,"temperature":0.5}})");
  CHECK(endpoints::build_url("http://h:1", *find_endpoint("huggingface_generate"), "", true) ==
        "http://h:1/generate_stream");
  CHECK(endpoints::build_url("http://h:1", *find_endpoint("huggingface_generate"), "", false) ==
        "http://h:1/generate");
}
