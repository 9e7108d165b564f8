// The endpoint types this build implements (spec §5.1). Only types whose payload and
// response parsing exist are listed, so an unsupported --endpoint-type fails validation
// instead of sending requests nobody can parse.
#include <array>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

namespace {

constexpr std::array<EndpointInfo, 21> kEndpoints = {{
    // The media flags follow AIPerf 0.13's plugin metadata (supports_images / supports_audio).
    {"chat", "/v1/chat/completions", "", "LLM Metrics", true, true, true, false, true, true, false, false, true},
    {"completions", "/v1/completions", "", "LLM Metrics", true, true, true},
    {"embeddings", "/v1/embeddings", "", "Embeddings Metrics", false, false, true},
    {"chat_embeddings", "/v1/embeddings", "", "Embeddings Metrics", false, false, true, false, true, false, false,
     false, true},
    {"nim_embeddings", "/v1/embeddings", "", "NIM Embeddings Metrics", false, false, true, false, true},
    {"nim_rankings", "/v1/ranking", "", "Rankings Metrics", false, false, true},
    {"cohere_rankings", "/v2/rerank", "", "Ranking Metrics", false, false, true},
    {"hf_tei_rankings", "/rerank", "", "Ranking Metrics", false, false, true},
    {"huggingface_generate", "/generate", "/generate_stream", "LLM Metrics", true, true, true},
    {"image_generation", "/v1/images/generations", "", "Image Generation Metrics", true, false, true},
    {"solido_rag", "/rag/api/prompt", "", "SOLIDO RAG Metrics", true, true, true},
    // No default path: requests go to the base URL or --endpoint.
    {"template", "", "", "LLM Metrics", true, true, true},
    // Post-0.6 AIPerf (spec §5.5).
    {"responses", "/v1/responses", "", "LLM Metrics", true, true, true, false, true, true, false, false, true},
    // Anthropic Messages API.
    {"messages", "/v1/messages", "", "LLM Metrics", true, true, true, false, true, false, false, false, true},
    // Verbatim raw_payload / inputs_json bodies to the base URL or --endpoint; responses
    // auto-detected like template's.
    {"raw", "", "", "LLM Metrics", true, true, true},
    // GenAI-Perf's Triton generate extension (--service-kind triton); the CLI substitutes
    // {MODEL_NAME} with the first model, as GenAI-Perf does.
    {"generate", "/v2/models/{MODEL_NAME}/generate", "/v2/models/{MODEL_NAME}/generate_stream", "LLM Metrics", true,
     true, true},
    // KServe v2 inference (GenAI-Perf's --service-kind triton --endpoint-type kserve): sent over
    // gRPC (grpc:// or grpcs:// URLs, kserve/grpc_client.h); the CLI substitutes {MODEL_NAME}.
    {"kserve", "/v2/models/{MODEL_NAME}/infer", "", "LLM Metrics", true, true, true},
    // AIPerf 0.13's media endpoints (media_payloads.cpp, media_content.cpp). image_edit's ISL
    // is its prompt; the image metrics apply to it but its body has no image part AIPerf counts.
    {"image_retrieval", "/v1/infer", "", "Image Retrieval Metrics", false, false, false, false, true, false},
    {"image_edit", "/v1/images/edits", "", "Image Edit Metrics", false, false, true, true, true, false},
    {"audio_transcription", "/v1/audio/transcriptions", "", "Audio Transcription Metrics", false, false, false, true,
     false, true},
    // Async job API: POST the form, poll /v1/videos/<id> (services/worker/video_job.h).
    {"video_generation", "/v1/videos", "", "Video Generation Metrics", false, false, true, true, false, false, true,
     true},
}};

}  // namespace

const EndpointInfo* find_endpoint(std::string_view type) {
  for (const EndpointInfo& info : kEndpoints) {
    if (info.type == type) return &info;
  }
  return nullptr;
}

std::vector<std::string> endpoint_type_names() {
  std::vector<std::string> names;
  names.reserve(kEndpoints.size());
  for (const EndpointInfo& info : kEndpoints) names.emplace_back(info.type);
  return names;
}

}  // namespace aiperf::endpoints
