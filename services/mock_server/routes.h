// The mock server's URL routes and the HTTP status codes it answers with.
#pragma once
#include <array>
#include <ostream>  // Boost 1.81's verb.hpp uses std::ostream without including it
#include <string_view>

#include <boost/beast/http/verb.hpp>

namespace aiperf::mock {

enum class Route {
  chat_completions,
  completions,
  embeddings,
  nim_ranking,
  tei_rerank,
  cohere_rerank,
  tgi_generate,
  tgi_generate_stream,
  responses,
  image_generations,
  solido_rag,
  triton_generate,         // /v2/models/{model}/generate
  triton_generate_stream,  // /v2/models/{model}/generate_stream
  messages,                // /v1/messages (Anthropic)
  image_retrieval,         // /v1/infer (NIM)
  image_edits,
  audio_transcriptions,
  videos,                  // POST /v1/videos (video_api.h)
  video_job,               // GET /v1/videos/{id}[/content]
  models,
  health,
  root,
  metrics,
  not_found,
  method_not_allowed
};
inline constexpr size_t kRouteCount = static_cast<size_t>(Route::method_not_allowed) + 1;

// Label used in /metrics for each route, in enum order.
inline constexpr std::array<std::string_view, kRouteCount> kRouteLabels = {
    "/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/ranking", "/rerank", "/v2/rerank",
    "/generate", "/generate_stream", "/v1/responses", "/v1/images/generations", "/rag/api/prompt",
    "/v2/models/generate", "/v2/models/generate_stream", "/v1/messages", "/v1/infer", "/v1/images/edits",
    "/v1/audio/transcriptions", "/v1/videos", "/v1/videos/{id}", "/v1/models", "/health", "/", "/metrics", "not_found",
    "method_not_allowed"};
static_assert(kRouteLabels.back() == "method_not_allowed", "one label per route, in enum order");

// Every status the server sends; metrics keep one counter per (route, status).
inline constexpr std::array<int, 8> kStatusCodes = {200, 400, 404, 405, 429, 500, 502, 503};

// `target` may carry a query string, which is ignored.
Route match_route(boost::beast::http::verb method, std::string_view target);

}  // namespace aiperf::mock
