#include "tokenizer/hub_http.h"

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cctype>
#include <chrono>
#include <stdexcept>

namespace aiperf::tok {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// Tokenizer files are tens of MB at most (Gemma 3: 33 MB).
constexpr uint64_t kBodyLimit = 1ULL << 30;
constexpr int kMaxRedirects = 10;

struct Url {
  bool tls = false;
  std::string host;
  std::string port;
  std::string target;
};

Url parse_url(const std::string& url) {
  Url u;
  std::string rest;
  if (url.rfind("https://", 0) == 0) {
    u.tls = true;
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else {
    throw std::runtime_error("unsupported URL '" + url + "' (need http:// or https://)");
  }
  size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  u.target = slash == std::string::npos ? "/" : rest.substr(slash);
  size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']') == std::string::npos) {
    u.host = authority.substr(0, colon);
    u.port = authority.substr(colon + 1);
  } else {
    u.host = authority;
    u.port = u.tls ? "443" : "80";
  }
  if (u.host.empty()) throw std::runtime_error("URL without host: '" + url + "'");
  return u;
}

// Resolves a Location header against the URL it came from.
std::string redirect_target(const Url& from, const std::string& location) {
  if (location.rfind("http://", 0) == 0 || location.rfind("https://", 0) == 0) return location;
  std::string base = std::string(from.tls ? "https://" : "http://") + from.host + ":" + from.port;
  if (!location.empty() && location[0] == '/') return base + location;
  std::string dir = from.target.substr(0, from.target.rfind('/') + 1);
  return base + dir + location;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Turns Asio's errors into the short reasons users recognise.
std::runtime_error transport_error(const std::string& what, const beast::error_code& ec) {
  if (ec == asio::error::connection_refused) return std::runtime_error(what + ": connection refused");
  if (ec == beast::error::timeout) return std::runtime_error(what + ": timed out");
  return std::runtime_error(what + ": " + ec.message());
}

template <class Stream>
http::response<http::string_body> exchange(Stream& stream, const Url& u, const std::string& token,
                                           beast::tcp_stream& tcp, std::chrono::seconds timeout) {
  http::request<http::empty_body> req{http::verb::get, u.target, 11};
  req.set(http::field::host, u.host);
  req.set(http::field::user_agent, "aiperf-cpp");
  req.set(http::field::accept_encoding, "identity");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  tcp.expires_after(timeout);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(kBodyLimit);
  tcp.expires_after(timeout);
  http::read(stream, buffer, parser);
  return parser.release();
}

http::response<http::string_body> get_once(const Url& u, const std::string& token, int timeout_s) {
  asio::io_context ioc;
  asio::ip::tcp::resolver resolver(ioc);
  const std::string what = "GET " + std::string(u.tls ? "https://" : "http://") + u.host + ":" + u.port;
  beast::error_code ec;
  auto endpoints = resolver.resolve(u.host, u.port, ec);
  if (ec) throw transport_error(what, ec);
  auto timeout = std::chrono::seconds(timeout_s);
  try {
    if (!u.tls) {
      beast::tcp_stream tcp(ioc);
      tcp.expires_after(timeout);
      tcp.connect(endpoints);
      return exchange(tcp, u, token, tcp, timeout);
    }
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_default_verify_paths();
    ctx.set_verify_mode(asio::ssl::verify_peer);
    beast::ssl_stream<beast::tcp_stream> tls(ioc, ctx);
    if (!SSL_set_tlsext_host_name(tls.native_handle(), u.host.c_str())) {
      throw std::runtime_error(what + ": cannot set TLS server name");
    }
    tls.set_verify_callback(asio::ssl::host_name_verification(u.host));
    beast::get_lowest_layer(tls).expires_after(timeout);
    beast::get_lowest_layer(tls).connect(endpoints);
    tls.handshake(asio::ssl::stream_base::client);
    return exchange(tls, u, token, beast::get_lowest_layer(tls), timeout);
  } catch (const beast::system_error& e) {
    throw transport_error(what, e.code());
  }
}

}  // namespace

HubResponse hub_http_get(const std::string& url, const std::string& bearer_token, int timeout_s) {
  HubResponse out;
  Url first = parse_url(url);
  Url current = first;
  for (int hop = 0; hop <= kMaxRedirects; ++hop) {
    // Credentials go to the Hub itself, never to a CDN it redirects to.
    bool same_host = current.host == first.host && current.port == first.port;
    auto res = get_once(current, same_host ? bearer_token : std::string(), timeout_s);
    for (const auto& field : res) {
      out.headers.emplace(lower(std::string(field.name_string())), std::string(field.value()));
    }
    int status = static_cast<int>(res.result_int());
    if (status >= 300 && status < 400 && res.count(http::field::location) > 0) {
      current = parse_url(redirect_target(current, std::string(res[http::field::location])));
      continue;
    }
    out.status = status;
    out.body = std::move(res.body());
    return out;
  }
  throw std::runtime_error("GET " + url + ": more than " + std::to_string(kMaxRedirects) + " redirects");
}

}  // namespace aiperf::tok
