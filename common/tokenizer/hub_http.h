// A small synchronous HTTP(S) GET for fetching tokenizer files from the Hub: Beast over Asio,
// OpenSSL with peer and host-name verification, redirects followed. Used once per run at
// start-up, never on a hot path.
#pragma once
#include <map>
#include <string>

namespace aiperf::tok {

struct HubResponse {
  int status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  // lower-case names, of the first response
};

// GETs `url` (http:// or https://), following up to 10 redirects. `bearer_token`, when not
// empty, is sent as Authorization to the original host only (not to redirect targets on other
// hosts, such as a CDN). Throws std::runtime_error with a short reason on transport failure.
HubResponse hub_http_get(const std::string& url, const std::string& bearer_token, int timeout_s = 60);

}  // namespace aiperf::tok
