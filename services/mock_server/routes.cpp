#include "routes.h"

#include "metrics_pages.h"

namespace aiperf::mock {

Route match_route(boost::beast::http::verb method, std::string_view target) {
  using boost::beast::http::verb;
  // HEAD is GET without the body (RFC 9110 9.3.2); AIPerf probes /metrics with HEAD first.
  if (method == verb::head) method = verb::get;
  const std::string_view path = target.substr(0, target.find('?'));
  struct Entry {
    std::string_view path;
    verb method;
    Route route;
  };
  static constexpr Entry kTable[] = {
      {"/v1/chat/completions", verb::post, Route::chat_completions},
      {"/v1/completions", verb::post, Route::completions},
      {"/v1/embeddings", verb::post, Route::embeddings},
      {"/v1/ranking", verb::post, Route::nim_ranking},
      {"/rerank", verb::post, Route::tei_rerank},
      {"/v2/rerank", verb::post, Route::cohere_rerank},
      {"/generate", verb::post, Route::tgi_generate},
      {"/generate_stream", verb::post, Route::tgi_generate_stream},
      {"/v1/responses", verb::post, Route::responses},
      {"/v1/messages", verb::post, Route::messages},
      {"/v1/infer", verb::post, Route::image_retrieval},
      {"/v1/images/edits", verb::post, Route::image_edits},
      {"/v1/audio/transcriptions", verb::post, Route::audio_transcriptions},
      {"/v1/videos", verb::post, Route::videos},
      {"/v1/images/generations", verb::post, Route::image_generations},
      {"/rag/api/prompt", verb::post, Route::solido_rag},
      {"/v1/models", verb::get, Route::models},
      {"/health", verb::get, Route::health},
      {"/", verb::get, Route::root},
      {"/metrics", verb::get, Route::metrics},
  };
  // Triton's generate extension names the model in the path.
  if (path.starts_with("/v2/models/") && path.size() > 11) {
    const std::string_view rest = path.substr(11);
    const size_t slash = rest.find('/');
    if (slash != 0 && slash != std::string_view::npos) {
      const std::string_view action = rest.substr(slash);
      if (action == "/generate" || action == "/generate_stream") {
        if (method != verb::post) return Route::method_not_allowed;
        return action == "/generate" ? Route::triton_generate : Route::triton_generate_stream;
      }
    }
  }
  // Video jobs name the job in the path.
  if (path.starts_with("/v1/videos/") && path.size() > 11) return method == verb::get ? Route::video_job : Route::method_not_allowed;
  // /metrics, /vllm/metrics and the fake DCGM exporters' /dcgm<N>/metrics.
  if (is_metrics_path(path)) return method == verb::get ? Route::metrics : Route::method_not_allowed;
  for (const Entry& entry : kTable) {
    if (entry.path != path) continue;
    return entry.method == method ? entry.route : Route::method_not_allowed;
  }
  return Route::not_found;
}

}  // namespace aiperf::mock
