// Serialises the request line and headers of an HTTP/1.1 request. The body is written
// separately (gather write), so it is never copied.
#pragma once
#include <optional>
#include <string>

#include "http/http_client.h"
#include "http/url.h"

namespace aiperf::http {

// The head for `request` sent to `url`: the caller's headers exactly as given, then Host
// (unless the caller set one) and Content-Length. nullopt when a header name or value
// contains CR, LF or NUL (it would split the header block).
std::optional<std::string> build_request_head(const Request& request, const ParsedUrl& url);

}  // namespace aiperf::http
