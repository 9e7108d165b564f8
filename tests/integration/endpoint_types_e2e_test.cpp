// End-to-end: the newer endpoint types (image_generation, responses, solido_rag, template,
// Triton generate) against aiperf-mock-server: zero errors, the expected request count, token
// counts where the type produces tokens, and the payloads the mock received
// (--record-requests) checked field by field against spec §5.4/§5.5.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

using Run = aiperf::test::CapturedRun;
using aiperf::test::check_clean;

// Runs aiperf against a fresh mock, started with `mock_args`, that records every request.
Run profile(std::vector<std::string> args, std::vector<std::string> mock_args = {"--fast"}) {
  return aiperf::test::run_captured(args, mock_args);
}

}  // namespace

TEST_CASE("image_generation: prompt, b64_json, n, extras, non-streaming and streaming", "[e2e][endpoint_types]") {
  for (bool streaming : {false, true}) {
    std::vector<std::string> args{"--model", "flux", "--endpoint-type", "image_generation", "--request-count", "2",
                                  "--isl", "10", "--extra-inputs", "size:512x512"};
    if (streaming) args.insert(args.end(), {"--streaming", "--extra-inputs", "partial_images:2"});
    Run run = profile(args);
    check_clean(run, 2);
    CHECK(run.out.find("NVIDIA AIPerf | Image Generation Metrics") != std::string::npos);
    for (const auto& r : run.requests) {
      CHECK(r.path == "/v1/images/generations");
      CHECK(r.body["prompt"].is_string());
      CHECK(r.body["model"] == "flux");
      CHECK(r.body["response_format"] == "b64_json");
      CHECK(r.body["n"] == 1);
      CHECK(r.body["size"] == "512x512");
      if (streaming) {
        CHECK(r.body["stream"] == true);
        CHECK(r.body["partial_images"] == 2);
        CHECK(r.body.size() == 7);
      } else {
        CHECK(r.body.size() == 5);
      }
    }
    // No tokens are produced: the summary carries no output token metrics.
    CHECK_FALSE(run.summary().contains("output_sequence_length"));
  }
}

TEST_CASE("responses: input items, max_output_tokens, streamed text and reasoning tokens", "[e2e][endpoint_types]") {
  for (bool streaming : {false, true}) {
    // The mock reasons for *qwen* models: effort low = 100 reasoning tokens, the rest content.
    std::vector<std::string> args{"--model", "qwen-mini", "--endpoint-type", "responses", "--request-count", "2",
                                  "--isl", "16", "--osl", "130", "--extra-inputs", "ignore_eos:true",
                                  "--extra-inputs", R"({"reasoning": {"effort": "low"}})"};
    if (streaming) args.push_back("--streaming");
    Run run = profile(args);
    check_clean(run, 2);
    CHECK(run.out.find("NVIDIA AIPerf | LLM Metrics") != std::string::npos);
    for (const auto& r : run.requests) {
      CHECK(r.path == "/v1/responses");
      REQUIRE(r.body["input"].size() == 1);
      const json& item = r.body["input"][0];
      CHECK(item["role"] == "user");
      REQUIRE(item["content"].size() == 1);
      CHECK(item["content"][0]["type"] == "input_text");
      CHECK(item["content"][0]["text"].is_string());
      CHECK(r.body["model"] == "qwen-mini");
      CHECK(r.body["stream"] == streaming);
      CHECK(r.body["max_output_tokens"] == 130);
      CHECK(r.body["ignore_eos"] == true);
      CHECK(r.body["reasoning"] == json{{"effort", "low"}});
      CHECK(r.body.size() == 6);
    }
    const json s = run.summary();
    CHECK(s["input_sequence_length"]["min"] == 16);
    CHECK(s["reasoning_token_count"]["min"] == 100);
    CHECK(s["reasoning_token_count"]["max"] == 100);
    CHECK(s["output_token_count"]["min"] == 30);
    CHECK(s["output_token_count"]["max"] == 30);
    CHECK(s["output_sequence_length"]["min"] == 130);  // OSL includes reasoning
  }
}

TEST_CASE("solido_rag: query list, filters, inference_model, streamed content", "[e2e][endpoint_types]") {
  for (bool streaming : {false, true}) {
    std::vector<std::string> args{"--model", "rag-llm", "--endpoint-type", "solido_rag", "--request-count", "2",
                                  "--isl", "12"};
    // AIPerf sends no "stream" field for Solido; a server streams when asked through extras.
    if (streaming) args.insert(args.end(), {"--streaming", "--extra-inputs", "stream:true"});
    Run run = profile(args);
    check_clean(run, 2);
    CHECK(run.out.find("NVIDIA AIPerf | SOLIDO RAG Metrics") != std::string::npos);
    for (const auto& r : run.requests) {
      CHECK(r.path == "/rag/api/prompt");
      REQUIRE(r.body["query"].size() == 1);
      CHECK(r.body["query"][0].is_string());
      CHECK(r.body["filters"] == json{{"family", "Solido"}, {"tool", "SDE"}});
      CHECK(r.body["inference_model"] == "rag-llm");
      CHECK(r.body.size() == (streaming ? 4u : 3u));
    }
    // The mock's budget without max tokens is max(2*prompt, 16) with prompt ~ 12 tokens.
    CHECK(run.summary()["output_sequence_length"]["min"] >= 1);
  }
}

TEST_CASE("generate (Triton, --service-kind triton): path with the model, text_input, max_tokens", "[e2e][endpoint_types]") {
  for (bool streaming : {false, true}) {
    std::vector<std::string> args{"--model", "ensemble", "--service-kind", "triton", "--request-count", "3",
                                  "--isl", "16", "--osl", "6", "--extra-inputs", "ignore_eos:true"};
    if (streaming) args.push_back("--streaming");
    Run run = profile(args);
    check_clean(run, 3);
    for (const auto& r : run.requests) {
      CHECK(r.path == (streaming ? "/v2/models/ensemble/generate_stream" : "/v2/models/ensemble/generate"));
      CHECK(r.body["text_input"].is_string());
      CHECK(r.body["max_tokens"] == 6);
      CHECK(r.body["ignore_eos"] == true);
      if (streaming) CHECK(r.body["stream"] == true);
      CHECK(r.body.size() == (streaming ? 4u : 3u));
    }
    const json s = run.summary();
    CHECK(s["output_sequence_length"]["min"] == 6);
    CHECK(s["output_sequence_length"]["max"] == 6);
    CHECK(s["input_sequence_length"]["min"] == 16);
  }
}

TEST_CASE("template: inline Jinja payload to a custom endpoint, auto-detected and selected text", "[e2e][endpoint_types]") {
  const std::string tmpl =
      R"({"model": {{ model|tojson }}, "prompt": [{% for t in texts %}{{ t|tojson }}{% if not loop.last %}, {% endif %}{% endfor %}], )"
      R"("max_tokens": {{ max_tokens }}, "stream": {{ stream|tojson }}})";
  for (bool streaming : {false, true}) {
    for (const char* field : {"", "choices[0].text"}) {
      std::vector<std::string> args{"--model", "tmpl", "--endpoint-type", "template", "--endpoint", "/v1/completions",
                                    "--request-count", "2", "--isl", "10", "--osl", "7", "--extra-inputs",
                                    json{{"payload_template", tmpl}, {"ignore_eos", true}}.dump()};
      if (*field) args.insert(args.end(), {"--extra-inputs", std::string("response_field:") + field});
      if (streaming) args.push_back("--streaming");
      Run run = profile(args);
      check_clean(run, 2);
      for (const auto& r : run.requests) {
        CHECK(r.path == "/v1/completions");
        CHECK(r.body["model"] == "tmpl");
        REQUIRE(r.body["prompt"].size() == 1);
        CHECK(r.body["max_tokens"] == 7);
        CHECK(r.body["stream"] == streaming);
        CHECK(r.body["ignore_eos"] == true);
        CHECK(r.body.size() == 5);  // payload_template and response_field are not sent
      }
      const json s = run.summary();
      CHECK(s["output_sequence_length"]["min"] == 7);
      CHECK(s["output_sequence_length"]["max"] == 7);
    }
  }
}

TEST_CASE("template: named nv-embedqa template, auto-detected embeddings answer", "[e2e][endpoint_types]") {
  // nv-embedqa renders {"text": texts}; the mock's /v1/embeddings reads "input", added by an extra.
  Run run = profile({"--model", "emb", "--endpoint-type", "template", "--endpoint", "/v1/embeddings",
                     "--request-count", "2", "--isl", "8", "--batch-size", "2", "--extra-inputs",
                     "payload_template:nv-embedqa", "--extra-inputs", "input:what"});
  check_clean(run, 2);
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/embeddings");
    REQUIRE(r.body["text"].size() == 2);
    CHECK(r.body["text"][0].is_string());
    CHECK(r.body["input"] == "what");
    CHECK(r.body.size() == 2);
  }
}

TEST_CASE("mock embeddings and rankings latency knobs pace the answers", "[e2e][endpoint_types]") {
  // 40 ms base + 2 inputs x 30 ms: every request takes at least 100 ms (lower bound only).
  Run emb = profile({"--model", "e5", "--endpoint-type", "embeddings", "--request-count", "2", "--isl", "8",
                     "--batch-size", "2"},
                    {"--embedding-base-latency", "40", "--embedding-per-input-latency", "30"});
  check_clean(emb, 2);
  CHECK(emb.summary()["request_latency"]["min"].get<double>() >= 100.0);
  Run rank = profile({"--model", "rr", "--endpoint-type", "hf_tei_rankings", "--input-file",
                      std::string(AIPERF_TEST_DATA) + "/datasets/random_pool", "--conversation-num", "2",
                      "--batch-size", "2"},
                     {"--ranking-base-latency", "50", "--ranking-per-passage-latency", "25"});
  check_clean(rank, 2);
  CHECK(rank.summary()["request_latency"]["min"].get<double>() >= 100.0);
}
