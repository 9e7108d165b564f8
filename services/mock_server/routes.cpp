#include "routes.h"

namespace aiperf::mock {

Route match_route(boost::beast::http::verb method, std::string_view target) {
  using boost::beast::http::verb;
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
      {"/v1/models", verb::get, Route::models},
      {"/health", verb::get, Route::health},
      {"/", verb::get, Route::root},
      {"/metrics", verb::get, Route::metrics},
  };
  for (const Entry& entry : kTable) {
    if (entry.path != path) continue;
    return entry.method == method ? entry.route : Route::method_not_allowed;
  }
  return Route::not_found;
}

}  // namespace aiperf::mock
