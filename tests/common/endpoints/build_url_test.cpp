#include <catch2/catch.hpp>

#include "endpoints/endpoint.h"

using aiperf::endpoints::build_url;
using aiperf::endpoints::EndpointInfo;
using aiperf::endpoints::find_endpoint;

TEST_CASE("endpoint table has chat and completions with spec values") {
  const EndpointInfo* chat = find_endpoint("chat");
  REQUIRE(chat);
  CHECK(chat->path == "/v1/chat/completions");
  CHECK(chat->metrics_title == "LLM Metrics");
  CHECK(chat->supports_streaming);
  CHECK(chat->produces_tokens);
  CHECK(chat->tokenizes_input);
  const EndpointInfo* completions = find_endpoint("completions");
  REQUIRE(completions);
  CHECK(completions->path == "/v1/completions");
  CHECK(find_endpoint("nope") == nullptr);
  CHECK(aiperf::endpoints::endpoint_type_names() == std::vector<std::string>{"chat",
                                                                             "completions",
                                                                             "embeddings",
                                                                             "chat_embeddings",
                                                                             "nim_embeddings",
                                                                             "nim_rankings",
                                                                             "cohere_rankings",
                                                                             "hf_tei_rankings",
                                                                             "huggingface_generate",
                                                                             "image_generation",
                                                                             "solido_rag",
                                                                             "template",
                                                                             "responses",
                                                                             "messages",
                                                                             "raw",
                                                                             "generate",
                                                                             "kserve",
                                                                             "image_retrieval",
                                                                             "image_edit",
                                                                             "audio_transcription",
                                                                             "video_generation"});
  const EndpointInfo* embeddings = find_endpoint("embeddings");
  REQUIRE(embeddings);
  CHECK_FALSE(embeddings->supports_streaming);
  CHECK_FALSE(embeddings->produces_tokens);
  CHECK(find_endpoint("cohere_rankings")->path == "/v2/rerank");
  // A gRPC base keeps its scheme (only a URL without one gets http://).
  CHECK(build_url("grpc://h:8001", *find_endpoint("kserve"), "/v2/models/m/infer", false) ==
        "grpc://h:8001/v2/models/m/infer");
  CHECK(build_url("h:8001", *find_endpoint("chat"), "", false) == "http://h:8001/v1/chat/completions");
}

TEST_CASE("endpoint table: the newer types with spec §5.1 paths and capabilities") {
  const EndpointInfo* image = find_endpoint("image_generation");
  REQUIRE(image);
  CHECK(image->path == "/v1/images/generations");
  CHECK(image->metrics_title == "Image Generation Metrics");
  CHECK(image->supports_streaming);
  CHECK_FALSE(image->produces_tokens);
  CHECK(find_endpoint("solido_rag")->path == "/rag/api/prompt");
  CHECK(find_endpoint("solido_rag")->metrics_title == "SOLIDO RAG Metrics");
  CHECK(find_endpoint("responses")->path == "/v1/responses");
  CHECK(find_endpoint("responses")->produces_tokens);
  const EndpointInfo* tmpl = find_endpoint("template");
  CHECK(tmpl->path.empty());
  CHECK(build_url("http://h:1/custom", *tmpl, "", false) == "http://h:1/custom");  // no path: the base URL
  const EndpointInfo* generate = find_endpoint("generate");
  CHECK(build_url("h:1", *generate, "v2/models/ens/generate_stream", true) == "http://h:1/v2/models/ens/generate_stream");
}

TEST_CASE("build_url follows spec 5.2") {
  const EndpointInfo& chat = *find_endpoint("chat");
  CHECK(build_url("http://localhost:8000", chat, "", true) ==
        "http://localhost:8000/v1/chat/completions");
  SECTION("trailing slashes stripped") {
    CHECK(build_url("http://localhost:8000/", chat, "", false) ==
          "http://localhost:8000/v1/chat/completions");
    CHECK(build_url("http://localhost:8000//", chat, "", false) ==
          "http://localhost:8000/v1/chat/completions");
  }
  SECTION("/v1 de-duplicated") {
    CHECK(build_url("http://localhost:8000/v1", chat, "", false) ==
          "http://localhost:8000/v1/chat/completions");
    CHECK(build_url("http://localhost:8000/v1/", chat, "", false) ==
          "http://localhost:8000/v1/chat/completions");
    CHECK(build_url("http://localhost:8000/api/v2", chat, "", false) ==
          "http://localhost:8000/api/v2/v1/chat/completions");
  }
  SECTION("custom endpoint replaces the path, leading slashes dropped") {
    CHECK(build_url("http://localhost:8000", chat, "/custom/generate", false) ==
          "http://localhost:8000/custom/generate");
    CHECK(build_url("http://localhost:8000/v1", chat, "v1/chat/completions", false) ==
          "http://localhost:8000/v1/v1/chat/completions");
  }
  SECTION("http:// prepended when there is no scheme") {
    CHECK(build_url("localhost:8000", chat, "", false) == "http://localhost:8000/v1/chat/completions");
    CHECK(build_url("https://api.example.com", chat, "", false) ==
          "https://api.example.com/v1/chat/completions");
  }
  SECTION("query parameters of the base URL are kept") {
    CHECK(build_url("http://h:1/v1?api-version=2", chat, "", false) ==
          "http://h:1/v1/chat/completions?api-version=2");
    CHECK(build_url("http://h:1?a=1", chat, "/x?b=2", false) == "http://h:1/x?a=1&b=2");
  }
}
