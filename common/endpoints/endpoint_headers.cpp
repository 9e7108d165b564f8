// endpoint_headers (endpoint.h): authentication and API-version headers per endpoint type.
#include <strings.h>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

namespace {
constexpr const char* kAnthropicVersion = "2023-06-01";  // the version AIPerf 0.13 sends
}  // namespace

std::vector<std::pair<std::string, std::string>> endpoint_headers(
    const EndpointInfo& info, const std::string& api_key,
    const std::vector<std::pair<std::string, std::string>>& user_headers) {
  std::vector<std::pair<std::string, std::string>> out;
  if (info.type != "messages") {
    if (!api_key.empty()) out.emplace_back("Authorization", "Bearer " + api_key);
    return out;
  }
  if (!api_key.empty()) out.emplace_back("x-api-key", api_key);
  bool versioned = false;
  for (const auto& [name, value] : user_headers) versioned |= strcasecmp(name.c_str(), "anthropic-version") == 0;
  if (!versioned) out.emplace_back("anthropic-version", kAnthropicVersion);
  return out;
}

}  // namespace aiperf::endpoints
