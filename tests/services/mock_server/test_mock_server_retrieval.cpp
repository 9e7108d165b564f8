// Embeddings, rankings and TGI generate routes through a real socket; request recording.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "retrieval_responses.h"
#include "server_fixture.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

TEST_CASE("embeddings: one deterministic 768-dim vector per input, with usage") {
  ServerFixture fixture;
  const std::string request = R"({"model":"e","input":["hello world","second input"]})";
  const json body = json::parse(fixture.client().send(post("/v1/embeddings", request)).body());
  CHECK(body["object"] == "list");
  CHECK(body["model"] == "e");
  REQUIRE(body["data"].size() == 2);
  CHECK(body["data"][1]["index"] == 1);
  CHECK(body["data"][0]["embedding"].size() == kEmbeddingDims);
  CHECK(body["data"][0]["embedding"] != body["data"][1]["embedding"]);
  CHECK(body["usage"]["prompt_tokens"] == 6);  // 3 + 3 by the character rule
  const json again = json::parse(fixture.client().send(post("/v1/embeddings", request)).body());
  CHECK(again["data"] == body["data"]);
}

TEST_CASE("rankings: NIM, TEI and Cohere shapes, one score per passage") {
  ServerFixture fixture;
  const json nim = json::parse(fixture.client().send(post("/v1/ranking",
      R"({"model":"r","query":{"text":"q"},"passages":[{"text":"a"},{"text":"b"},{"text":"c"}]})")).body());
  REQUIRE(nim["rankings"].size() == 3);
  CHECK(nim["rankings"][0]["logit"].get<double>() >= nim["rankings"][1]["logit"].get<double>());
  const json tei = json::parse(fixture.client().send(post("/rerank", R"({"query":"q","texts":["a","b"]})")).body());
  REQUIRE(tei.is_array());
  CHECK(tei.size() == 2);
  CHECK(tei[0].contains("score"));
  const json cohere = json::parse(
      fixture.client().send(post("/v2/rerank", R"({"model":"r","query":"q","documents":["a"]})")).body());
  CHECK(cohere["results"][0]["index"] == 0);
  CHECK(cohere["results"][0].contains("relevance_score"));
  const auto bad = fixture.client().send(post("/v2/rerank", R"({"query":"q"})"));
  CHECK(bad.result() == http::status::bad_request);
}

TEST_CASE("TGI generate and generate_stream honour max_new_tokens") {
  ServerFixture fixture;
  const std::string request = R"({"inputs":"hello world","parameters":{"max_new_tokens":4,"ignore_eos":true}})";
  const json whole = json::parse(fixture.client().send(post("/generate", request)).body());
  const std::string text = whole["generated_text"];
  CHECK(std::count(text.begin(), text.end(), ' ') == 4);

  const auto streamed = fixture.client().send_streaming(post("/generate_stream", request));
  REQUIRE(streamed.chunks.size() == 4);  // no [DONE] for TGI
  std::string joined;
  for (int i = 0; i < 4; ++i) {
    const json event = event_json(streamed.chunks[i]);
    CHECK(event["index"] == i);
    joined += event["token"]["text"].get<std::string>();
    CHECK(event["generated_text"].is_null() == (i < 3));
  }
  CHECK(joined == text);
  CHECK(event_json(streamed.chunks[3])["details"]["finish_reason"] == "length");
}

TEST_CASE("request recording appends each POST path and JSON body") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("mock_record_" + std::to_string(::getpid()) + ".jsonl")).string();
  std::filesystem::remove(path);
  MockConfig config = fast_config();
  config.record_requests = path;
  {
    ServerFixture fixture(config);
    fixture.client().send(post("/v1/embeddings?x=1", R"({"input":"a","model":"m"})"));
    fixture.client().send(make_request(http::verb::get, "/health", ""));
  }
  std::ifstream in(path);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line == R"({"path":"/v1/embeddings?x=1","body":{"input":"a","model":"m"}})");
  CHECK_FALSE(std::getline(in, line));  // GETs are not recorded
  std::filesystem::remove(path);
}
