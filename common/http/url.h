// Absolute http(s) URL split into what a client needs: where to connect and what to ask for.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aiperf::http {

struct ParsedUrl {
  bool tls = false;         // https
  std::string host;         // without brackets for IPv6 literals
  uint16_t port = 0;        // explicit or scheme default (80 / 443)
  std::string target;       // path + query, "/" when empty; the fragment is dropped
  std::string host_header;  // "host[:port]" as sent in Host (port only when not the default)
  std::string origin;       // "scheme://host:port": the connection pool key
};

// nullopt when the URL is not absolute http(s), has no host, or has a bad port.
std::optional<ParsedUrl> parse_url(std::string_view url);

}  // namespace aiperf::http
