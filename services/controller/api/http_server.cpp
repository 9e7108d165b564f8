#include "http_server.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "log/log.h"

namespace aiperf::controller::api {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

// A scraper that connects and sends nothing must not hold a connection forever.
constexpr auto kIdleTimeout = std::chrono::seconds(30);

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, const HttpServer::Handler& handler) : stream_(std::move(socket)), handler_(handler) {}

  void read() {
    request_ = {};
    stream_.expires_after(kIdleTimeout);
    http::async_read(stream_, buffer_, request_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->close();
      self->respond();
    });
  }

 private:
  void respond() {
    response_ = {};
    response_.version(request_.version());
    response_.keep_alive(request_.keep_alive());
    response_.set(http::field::server, "aiperf");
    const auto method = request_.method();
    if (method != http::verb::get && method != http::verb::head) {
      response_.result(http::status::method_not_allowed);
      response_.set(http::field::allow, "GET, HEAD");
      response_.set(http::field::content_type, "text/plain; charset=utf-8");
      response_.body() = "method not allowed\n";
    } else {
      std::string_view target = request_.target();
      target = target.substr(0, target.find('?'));
      HttpResponse r;
      try {
        r = handler_(target);
      } catch (const std::exception& e) {
        r = {500, "text/plain; charset=utf-8", std::string("internal error: ") + e.what() + "\n"};
      }
      response_.result(static_cast<http::status>(r.status));
      response_.set(http::field::content_type, r.content_type);
      response_.body() = std::move(r.body);
    }
    response_.prepare_payload();
    if (method == http::verb::head) response_.body().clear();  // keeps the GET Content-Length
    stream_.expires_after(kIdleTimeout);
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec || !self->response_.keep_alive()) return self->close();
      self->read();
    });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.socket().close(ec);
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> request_;
  http::response<http::string_body> response_;
  const HttpServer::Handler& handler_;
};

}  // namespace

struct HttpServer::Impl {
  asio::io_context io{1};
  tcp::acceptor acceptor{io};
  Handler handler;
  std::thread thread;
  bool stopped = false;

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (!ec) std::make_shared<Session>(std::move(socket), handler)->read();
      accept();
    });
  }
};

HttpServer::HttpServer(const std::string& host, uint16_t port, Handler handler) : impl_(std::make_unique<Impl>()) {
  impl_->handler = std::move(handler);
  beast::error_code ec;
  const auto address = asio::ip::make_address(host, ec);
  const std::string where = host + ":" + std::to_string(port);
  if (ec) throw std::runtime_error("--api-host " + host + ": not an IP address");
  const tcp::endpoint endpoint(address, port);
  impl_->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl_->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl_->acceptor.bind(endpoint, ec);
  if (!ec) impl_->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("--api-port: cannot listen on " + where + ": " + ec.message());
  impl_->accept();
  impl_->thread = std::thread([this] {
    try {
      impl_->io.run();
    } catch (const std::exception& e) {
      AIPERF_LOG(kError) << "api server: " << e.what();
    }
  });
}

HttpServer::~HttpServer() { stop(); }

void HttpServer::stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  // Stopping the io_context abandons every pending operation; the sessions (owned by their
  // handlers) are destroyed with it, closing their sockets.
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  beast::error_code ec;
  impl_->acceptor.close(ec);
}

uint16_t HttpServer::port() const {
  beast::error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

}  // namespace aiperf::controller::api
