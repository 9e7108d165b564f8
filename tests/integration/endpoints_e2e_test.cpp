// End-to-end: every endpoint type against aiperf-mock-server with zero errors and the expected
// request count; the payloads the mock received (--record-requests) are checked field by field.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kPool = std::string(AIPERF_TEST_DATA) + "/datasets/random_pool";

using Run = aiperf::test::CapturedRun;
using aiperf::test::check_clean;

// Runs aiperf against a fresh mock that records every request.
Run profile(std::vector<std::string> args) { return aiperf::test::run_captured(args); }

}  // namespace

TEST_CASE("embeddings: a batch of texts per request", "[e2e][endpoints]") {
  Run run = profile({"--model", "e5", "--endpoint-type", "embeddings", "--request-count", "3", "--isl", "12",
                     "--batch-size", "2", "--extra-inputs", "encoding_format:float"});
  check_clean(run, 3);
  CHECK(run.out.find("NVIDIA AIPerf | Embeddings Metrics") != std::string::npos);
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/embeddings");
    REQUIRE(r.body.size() == 3);
    CHECK(r.body["model"] == "e5");
    REQUIRE(r.body["input"].size() == 2);
    CHECK(r.body["input"][0].is_string());
    CHECK(r.body["encoding_format"] == "float");
  }
}

TEST_CASE("nim_embeddings and chat_embeddings", "[e2e][endpoints]") {
  Run nim = profile({"--model", "nv-embed", "--endpoint-type", "nim_embeddings", "--request-count", "2", "--isl", "8"});
  check_clean(nim, 2);
  CHECK(nim.out.find("NIM Embeddings Metrics") != std::string::npos);
  CHECK(nim.requests[0].body["input"].size() == 1);

  Run chat = profile({"--model", "vlm-embed", "--endpoint-type", "chat_embeddings", "--request-count", "2", "--isl", "8"});
  check_clean(chat, 2);
  const json& body = chat.requests[0].body;
  CHECK(chat.requests[0].path == "/v1/embeddings");
  REQUIRE(body.size() == 2);
  CHECK(body["messages"][0]["role"] == "user");
  CHECK(body["messages"][0].size() == 2);  // role and content: no "name" (AIPerf 0.13)
  CHECK(body["model"] == "vlm-embed");
}

TEST_CASE("rankings: NIM, Cohere and HF TEI payloads from query/passages pools", "[e2e][endpoints]") {
  const std::set<std::string> queries{"What is a GPU?", "What is a TPU?"};
  Run nim = profile({"--model", "rr", "--endpoint-type", "nim_rankings", "--input-file", kPool,
                     "--conversation-num", "3", "--batch-size", "2"});
  check_clean(nim, 3);
  CHECK(nim.out.find("NVIDIA AIPerf | Rankings Metrics") != std::string::npos);
  for (const auto& r : nim.requests) {
    CHECK(r.path == "/v1/ranking");
    CHECK(r.body["model"] == "rr");
    CHECK(queries.count(r.body["query"]["text"].get<std::string>()) == 1);
    REQUIRE(r.body["passages"].size() == 2);  // --batch-size 2 draws two passages
    CHECK(r.body["passages"][0].contains("text"));
  }

  Run cohere = profile({"--model", "rr", "--endpoint-type", "cohere_rankings", "--input-file", kPool,
                        "--conversation-num", "2"});
  check_clean(cohere, 2);
  CHECK(cohere.requests[0].path == "/v2/rerank");
  CHECK(cohere.requests[0].body["model"] == "rr");
  CHECK(queries.count(cohere.requests[0].body["query"].get<std::string>()) == 1);
  CHECK(cohere.requests[0].body["documents"].size() == 1);

  Run tei = profile({"--model", "rr", "--endpoint-type", "hf_tei_rankings", "--input-file", kPool,
                     "--conversation-num", "2"});
  check_clean(tei, 2);
  CHECK(tei.requests[0].path == "/rerank");
  CHECK_FALSE(tei.requests[0].body.contains("model"));
  CHECK(tei.requests[0].body["texts"].size() == 1);
}

TEST_CASE("huggingface_generate: TGI generate and generate_stream", "[e2e][endpoints]") {
  for (bool streaming : {false, true}) {
    std::vector<std::string> args{"--model", "tgi", "--endpoint-type", "huggingface_generate", "--request-count",
                                  "3", "--isl", "16", "--osl", "6", "--extra-inputs", "ignore_eos:true"};
    if (streaming) args.push_back("--streaming");
    Run run = profile(args);
    check_clean(run, 3);
    for (const auto& r : run.requests) {
      CHECK(r.path == (streaming ? "/generate_stream" : "/generate"));
      CHECK(r.body["inputs"].is_string());
      CHECK(r.body["parameters"] == json::parse(R"({"max_new_tokens": 6, "ignore_eos": true})"));
      CHECK(r.body.size() == 2);
    }
    const json s = run.summary();
    CHECK(s["output_sequence_length"]["min"] == 6);
    CHECK(s["output_sequence_length"]["max"] == 6);
    CHECK(s["input_sequence_length"]["min"] == 16);
  }
}

TEST_CASE("custom --endpoint path overrides the default and keeps its query", "[e2e][endpoints]") {
  Run run = profile({"--model", "m", "--endpoint-type", "completions", "--endpoint", "v1/completions?tag=x",
                     "--request-count", "2", "--isl", "10"});
  check_clean(run, 2);
  CHECK(run.requests[0].path == "/v1/completions?tag=x");
  CHECK(run.requests[0].body["prompt"].is_string());  // a single prompt goes as a bare string
}

TEST_CASE("several models: round robin over dataset turns", "[e2e][endpoints]") {
  Run run = profile({"--model", "alpha,beta", "--model-selection-strategy", "round_robin", "--num-dataset-entries",
                     "2", "--request-count", "2", "--isl", "10"});
  check_clean(run, 2);
  std::set<std::string> models;
  for (const auto& r : run.requests) models.insert(r.body["model"].get<std::string>());
  CHECK(models == std::set<std::string>{"alpha", "beta"});
  const json inputs = json::parse(read_file(run.dir + "/inputs.json"));
  CHECK(inputs["data"][0]["payloads"][0]["model"] == "alpha");
  CHECK(inputs["data"][1]["payloads"][0]["model"] == "beta");
}
