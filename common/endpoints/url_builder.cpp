// build_url (spec §5.2): AIPerf's rules for joining --url and the endpoint path.
#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

namespace {

std::string_view lstrip_slashes(std::string_view s) {
  while (!s.empty() && s.front() == '/') s.remove_prefix(1);
  return s;
}

// Splits "a?b" into ("a", "b"); no query gives ("a", "").
std::pair<std::string_view, std::string_view> split_query(std::string_view s) {
  const size_t q = s.find('?');
  if (q == std::string_view::npos) return {s, {}};
  return {s.substr(0, q), s.substr(q + 1)};
}

}  // namespace

std::string build_url(const std::string& base_url, const EndpointInfo& info,
                      const std::string& custom_endpoint, bool streaming) {
  auto [base, base_query] = split_query(base_url);
  while (!base.empty() && base.back() == '/') base.remove_suffix(1);

  std::string url(base);
  std::string_view path_query;
  if (!custom_endpoint.empty()) {
    auto [path, query] = split_query(custom_endpoint);
    url.append("/").append(lstrip_slashes(path));
    path_query = query;
  } else {
    std::string_view path =
        streaming && !info.stream_path.empty() ? info.stream_path : info.path;
    path = lstrip_slashes(path);
    if (!path.empty()) {
      // "--url http://host/v1" plus "/v1/chat/completions" must not become /v1/v1/...
      if (url.ends_with("/v1") && path.starts_with("v1/")) path.remove_prefix(3);
      url.append("/").append(path);
    }
  }
  if (url.find("://") == std::string::npos) url.insert(0, "http://");  // keeps grpc:// too

  // Query parameters from the base URL are kept; the endpoint's own follow them.
  if (!base_query.empty() || !path_query.empty()) {
    url.append("?").append(base_query);
    if (!base_query.empty() && !path_query.empty()) url.append("&");
    url.append(path_query);
  }
  return url;
}

}  // namespace aiperf::endpoints
