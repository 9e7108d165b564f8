// Request bodies of image_generation, solido_rag, generate (Triton), responses and template,
// byte for byte (key order as AIPerf / GenAI-Perf build them).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>

#include "endpoint_test_util.h"
#include "endpoints/endpoint.h"

using namespace aiperf;
using namespace aiperf::endpoints::test;
using endpoints::build_payload;
using endpoints::find_endpoint;
using endpoints::PayloadOptions;
using nlohmann::json;

namespace {

proto::Turn turn_of(std::initializer_list<std::pair<std::string, std::vector<std::string>>> texts,
                    std::optional<int64_t> max_tokens = std::nullopt, std::string role = "") {
  proto::Turn turn;
  turn.set_role(std::move(role));
  for (const auto& [name, contents] : texts) {
    proto::Text* t = turn.add_texts();
    t->set_name(name);
    for (const auto& c : contents) t->add_contents(c);
  }
  if (max_tokens) turn.set_max_tokens(*max_tokens);
  return turn;
}

}  // namespace

TEST_CASE("image_generation payload: first text as prompt, b64_json, n=1, stream only when streaming") {
  const proto::Turn turn = turn_of({{"text", {"a red fox", "ignored"}}}, 50);
  CHECK(build("image_generation", {&turn}) ==
        R"({"prompt":"a red fox","model":"m1","response_format":"b64_json","n":1})");
  const json extras = {{"size", "512x512"}, {"response_format", "url"}};
  CHECK(build("image_generation", {&turn}, true, &extras) ==
        R"({"prompt":"a red fox","model":"m1","response_format":"url","n":1,"stream":true,"size":"512x512"})");
}

TEST_CASE("solido_rag payload: query list, default filters, inference_model, extras replace filters") {
  const proto::Turn turn = turn_of({{"text", {"What is PVTMC?", "", "sweeps"}}});
  CHECK(build("solido_rag", {&turn}, true) ==
        R"({"query":["What is PVTMC?","sweeps"],"filters":{"family":"Solido","tool":"SDE"},"inference_model":"m1"})");
  const json extras = {{"filters", {{"family", "X"}}}, {"top_k", 3}};
  CHECK(build("solido_rag", {&turn}, false, &extras) ==
        R"({"query":["What is PVTMC?","sweeps"],"filters":{"family":"X"},"inference_model":"m1","top_k":3})");
}

TEST_CASE("generate (Triton) payload: text_input joined, stream and max_tokens, extras top level") {
  const proto::Turn turn = turn_of({{"text", {"one", "two"}}}, 12);
  CHECK(build("generate", {&turn}) == R"({"text_input":"one two","max_tokens":12})");
  const json extras = {{"ignore_eos", true}};
  CHECK(build("generate", {&turn}, true, &extras) ==
        R"({"text_input":"one two","stream":true,"max_tokens":12,"ignore_eos":true})");
}

TEST_CASE("responses payload: input items with input_text parts, instructions, max_output_tokens") {
  const proto::Turn first = turn_of({{"text", {"Hi"}}});
  const proto::Turn answer = turn_of({{"text", {"Hello!"}}}, std::nullopt, "assistant");
  proto::Turn last = turn_of({{"text", {"Describe"}}}, 30);
  last.add_images()->add_contents("data:image/png;base64,AAA");
  CHECK(build("responses", {&first, &answer, &last}, true, nullptr, "Be brief.", "Context.") ==
        R"({"input":[{"role":"user","content":[{"type":"input_text","text":"Context."}]},)"
        R"({"role":"user","content":[{"type":"input_text","text":"Hi"}]},)"
        R"({"role":"assistant","content":[{"type":"output_text","text":"Hello!"}]},)"
        R"({"role":"user","content":[{"type":"input_text","text":"Describe"},)"
        R"({"type":"input_image","image_url":"data:image/png;base64,AAA"}]}],)"
        R"("model":"m1","stream":true,"instructions":"Be brief.","max_output_tokens":30})");
}

TEST_CASE("responses payload: extras merged, include_usage with server token counts") {
  const proto::Turn turn = turn_of({{"text", {"x"}}});
  const json extras = {{"reasoning", {{"effort", "low"}}}, {"stream", false}};
  PayloadOptions o;
  o.model = "m1";
  o.streaming = true;
  o.use_server_token_count = true;
  o.extra_inputs = &extras;
  CHECK(build_payload(*find_endpoint("responses"), o, {&turn}, "", "") ==
        R"({"input":[{"role":"user","content":[{"type":"input_text","text":"x"}]}],"model":"m1",)"
        R"("stream":false,"reasoning":{"effort":"low"},"stream_options":{"include_usage":true}})");

  // Unlike chat: only with server token counts, a non-object replaced, an explicit value kept.
  o.extra_inputs = nullptr;
  o.use_server_token_count = false;
  CHECK(build_payload(*find_endpoint("responses"), o, {&turn}, "", "") ==
        R"({"input":[{"role":"user","content":[{"type":"input_text","text":"x"}]}],"model":"m1","stream":true})");
  o.use_server_token_count = true;
  const json kept = {{"stream_options", {{"include_usage", false}}}};
  o.extra_inputs = &kept;
  CHECK(build_payload(*find_endpoint("responses"), o, {&turn}, "", "") ==
        R"({"input":[{"role":"user","content":[{"type":"input_text","text":"x"}]}],"model":"m1",)"
        R"("stream":true,"stream_options":{"include_usage":false}})");
  const json replaced = {{"stream_options", "x"}};
  o.extra_inputs = &replaced;
  CHECK(build_payload(*find_endpoint("responses"), o, {&turn}, "", "") ==
        R"({"input":[{"role":"user","content":[{"type":"input_text","text":"x"}]}],"model":"m1",)"
        R"("stream":true,"stream_options":{"include_usage":true}})");
}

TEST_CASE("template payload: inline Jinja with tojson, scalars, a loop and extras merged") {
  const proto::Turn turn = turn_of({{"query", {"q?"}}, {"passages", {"p1", "p2"}}}, 8);
  const json extras = {
      {"payload_template",
       R"({"model": {{ model|tojson }}, "q": {{ query|tojson }}, "n": {{ max_tokens }}, "s": {{ stream|tojson }},)"
       R"( "docs": [{% for p in passages %}{"t": "{{ p }}", "i": {{ loop.index0 }}}{% if not loop.last %},{% endif %}{% endfor %}]})"},
      {"response_field", "out"},
      {"temperature", 0.5}};
  CHECK(build("template", {&turn}, true, &extras) ==
        R"({"model":"m1","q":"q?","n":8,"s":true,"docs":[{"t":"p1","i":0},{"t":"p2","i":1}],"temperature":0.5})");
}

TEST_CASE("template payload: named nv-embedqa and a template file") {
  const proto::Turn turn = turn_of({{"text", {"a", "b"}}});
  const json named = {{"payload_template", "nv-embedqa"}};
  CHECK(build("template", {&turn}, false, &named) == R"({"text":["a","b"]})");

  const std::string path = "/tmp/aiperf_template_test_" + std::to_string(::getpid()) + ".j2";
  std::ofstream(path) << R"({"inputs": {{ text|tojson }}, "role": "{{ role }}", "turns": {{ turns|length }}})";
  const json from_file = {{"payload_template", path}};
  CHECK(build("template", {&turn}, false, &from_file) == R"({"inputs":"a","role":"None","turns":1})");
  std::remove(path.c_str());
}

TEST_CASE("template payload: missing template or non-JSON output is an error") {
  const proto::Turn turn = turn_of({{"text", {"a"}}});
  CHECK_THROWS_WITH(build("template", {&turn}),
                    Catch::Contains("needs --extra-inputs payload_template"));
  const json bad = {{"payload_template", "{{ text }} plain"}};
  CHECK_THROWS_WITH(build("template", {&turn}, false, &bad),
                    Catch::Contains("did not render a JSON object: a plain"));
}
