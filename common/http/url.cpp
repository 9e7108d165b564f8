#include "http/url.h"

#include <charconv>

namespace aiperf::http {

namespace {

bool starts_with_nocase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != prefix[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<ParsedUrl> parse_url(std::string_view url) {
  ParsedUrl out;
  if (starts_with_nocase(url, "https://")) {
    out.tls = true;
    url.remove_prefix(8);
  } else if (starts_with_nocase(url, "http://")) {
    url.remove_prefix(7);
  } else {
    return std::nullopt;
  }
  const size_t authority_end = url.find_first_of("/?#");
  std::string_view authority = url.substr(0, authority_end);
  std::string_view rest = authority_end == std::string_view::npos ? "" : url.substr(authority_end);
  if (const size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);  // userinfo is not sent; credentials go in headers
  }

  std::string_view host;
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {  // IPv6 literal: [::1]:8000
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return std::nullopt;
      port_text = after.substr(1);
    }
  } else {
    const size_t colon = authority.rfind(':');
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  if (host.empty()) return std::nullopt;

  const uint16_t default_port = out.tls ? 443 : 80;
  out.port = default_port;
  if (!port_text.empty()) {
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), value);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || value == 0 ||
        value > 65535) {
      return std::nullopt;
    }
    out.port = static_cast<uint16_t>(value);
  }

  out.host.assign(host);
  rest = rest.substr(0, rest.find('#'));
  if (rest.empty() || rest.front() != '/') out.target = "/";
  out.target.append(rest);

  const bool ipv6 = out.host.find(':') != std::string::npos;
  const std::string bracketed = ipv6 ? "[" + out.host + "]" : out.host;
  const std::string port = std::to_string(out.port);
  out.host_header = out.port == default_port ? bracketed : bracketed + ":" + port;
  out.origin = (out.tls ? "https://" : "http://") + bracketed + ":" + port;
  return out;
}

}  // namespace aiperf::http
