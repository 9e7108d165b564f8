#include "fakes/fake_http_server.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/core/string.hpp>

namespace aiperf::testing {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = net::ip::tcp;
namespace {
constexpr auto use_ec = net::as_tuple(net::use_awaitable);

std::string response_head(const FakeResponse& r) {
  std::string reason = r.reason.empty()
                           ? std::string(bhttp::obsolete_reason(bhttp::int_to_status(r.status)))
                           : r.reason;
  std::string head = std::string(r.http10 ? "HTTP/1.0 " : "HTTP/1.1 ") +
                     std::to_string(r.status) + " " + reason + "\r\n";
  for (const auto& [name, value] : r.headers) head += name + ": " + value + "\r\n";
  if (!r.http10) {
    if (r.chunked) {
      head += "Transfer-Encoding: chunked\r\n";
    } else {
      size_t length = 0;
      for (const auto& part : r.body_parts) length += part.size();
      head += "Content-Length: " + std::to_string(length) + "\r\n";
    }
    if (r.close_after) head += "Connection: close\r\n";
  }
  return head + "\r\n";
}

std::string frame(const FakeResponse& r, const std::string& part) {
  if (!r.chunked) return part;
  char size[20];
  std::snprintf(size, sizeof size, "%zx\r\n", part.size());
  return size + part + "\r\n";
}

}  // namespace

std::string FakeRequest::header(const std::string& name) const {
  for (const auto& [n, v] : headers) {
    if (boost::beast::iequals(n, name)) return v;
  }
  return {};
}

size_t FakeRequest::header_count(const std::string& name) const {
  size_t count = 0;
  for (const auto& h : headers) count += boost::beast::iequals(h.first, name) ? 1 : 0;
  return count;
}

struct FakeHttpServer::Session {
  static net::awaitable<void> accept_loop(FakeHttpServer& server) {
    for (;;) {
      auto [ec, socket] = co_await server.acceptor_.async_accept(use_ec);
      if (ec) co_return;
      ++server.accepted_;
      socket.set_option(tcp::no_delay(true));
      net::co_spawn(server.io_, start(server, std::move(socket)), net::detached);
    }
  }

  static net::awaitable<void> start(FakeHttpServer& server, tcp::socket socket) {
    if (!server.tls_) co_return co_await serve(server, socket);
    net::ssl::stream<tcp::socket> stream(std::move(socket), *server.tls_);
    auto [ec] = co_await stream.async_handshake(net::ssl::stream_base::server, use_ec);
    if (!ec) co_await serve(server, stream);
  }

  static net::awaitable<void> wait_gate(FakeHttpServer& server) {
    while (server.permits_ == 0) co_await server.gate_.async_wait(use_ec);
    --server.permits_;
  }

  template <class Stream>
  static net::awaitable<void> serve(FakeHttpServer& server, Stream& stream) {
    boost::beast::flat_buffer buffer;
    for (;;) {
      bhttp::request<bhttp::string_body> req;
      auto [ec, n] = co_await bhttp::async_read(stream, buffer, req, use_ec);
      if (ec) co_return;
      FakeRequest request{std::string(req.method_string()), std::string(req.target()), {},
                          std::move(req.body())};
      for (const auto& field : req) {
        request.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      }
      server.record(request);
      const FakeResponse response = server.handler_(request);
      if (response.reset_without_answer) {
        boost::system::error_code ignored;
        stream.lowest_layer().set_option(tcp::socket::linger(true, 0), ignored);  // close = RST
        stream.lowest_layer().close(ignored);
        ++server.closed_;
        co_return;
      }
      if (response.close_without_answer) {
        boost::system::error_code ignored;
        stream.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
        ++server.closed_;
        co_return;
      }
      if (response.never_answer) {
        char byte;
        for (;;) {  // hold the connection until the client gives up
          auto [rec, rn] = co_await stream.async_read_some(net::buffer(&byte, 1), use_ec);
          if (rec) co_return;
        }
      }
      std::string out = response_head(response);
      for (size_t i = 0; i < response.body_parts.size(); ++i) {
        if (response.gate_parts && i > 0) {
          if (auto [wec, wn] = co_await net::async_write(stream, net::buffer(out), use_ec); wec) {
            co_return;
          }
          out.clear();
          co_await wait_gate(server);
        }
        out += frame(response, response.body_parts[i]);
      }
      if (response.chunked) out += "0\r\n\r\n";
      if (auto [wec, wn] = co_await net::async_write(stream, net::buffer(out), use_ec); wec) {
        co_return;
      }
      if (response.close_after || response.close_silently || response.http10) {
        boost::system::error_code ignored;
        stream.lowest_layer().shutdown(tcp::socket::shutdown_both, ignored);
        ++server.closed_;
        co_return;
      }
    }
  }
};

FakeHttpServer::FakeHttpServer(Handler handler, const TlsIdentity* tls)
    : handler_(std::move(handler)),
      acceptor_(io_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)),
      gate_(io_, net::steady_timer::time_point::max()) {
  if (tls) {
    tls_ = std::make_unique<net::ssl::context>(net::ssl::context::tls_server);
    tls_->use_certificate_chain(net::buffer(tls->cert_pem));
    tls_->use_private_key(net::buffer(tls->key_pem), net::ssl::context::pem);
  }
  port_ = acceptor_.local_endpoint().port();
  net::co_spawn(io_, Session::accept_loop(*this), net::detached);
  thread_ = std::thread([this] { io_.run(); });
}

FakeHttpServer::~FakeHttpServer() {
  io_.stop();
  thread_.join();
}

void FakeHttpServer::release() {
  net::post(io_, [this] {
    ++permits_;
    gate_.cancel();  // wakes every waiter; each re-checks the permit count
  });
}

std::vector<FakeRequest> FakeHttpServer::requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FakeHttpServer::record(const FakeRequest& request) {
  std::lock_guard lock(mutex_);
  requests_.push_back(request);
}

}  // namespace aiperf::testing
