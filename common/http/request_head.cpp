#include "http/request_head.h"

#include <cstring>
#include <string_view>

namespace aiperf::http {

namespace {

bool equals_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

bool header_safe(std::string_view s) {
  return s.find_first_of(std::string_view("\r\n\0", 3)) == std::string_view::npos;
}

}  // namespace

std::optional<std::string> build_request_head(const Request& request, const ParsedUrl& url) {
  std::string head;
  head.reserve(128 + url.target.size() + request.headers.size() * 48);
  head.append(request.method).append(" ").append(url.target).append(" HTTP/1.1\r\n");
  bool has_host = false;
  for (const auto& [name, value] : request.headers) {
    if (!header_safe(name) || !header_safe(value) || name.empty()) return std::nullopt;
    // The length is always ours: it must match the body actually written.
    if (equals_nocase(name, "content-length")) continue;
    has_host = has_host || equals_nocase(name, "host");
    head.append(name).append(": ").append(value).append("\r\n");
  }
  if (!has_host) head.append("Host: ").append(url.host_header).append("\r\n");
  // GET/HEAD without a body carry no length, as every common client does.
  const bool bodyless = request.body.empty() && (request.method == "GET" || request.method == "HEAD");
  if (!bodyless) head.append("Content-Length: ").append(std::to_string(request.body.size())).append("\r\n");
  head.append("\r\n");
  return head;
}

}  // namespace aiperf::http
