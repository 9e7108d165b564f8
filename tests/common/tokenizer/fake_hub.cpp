#include "fake_hub.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace aiperf::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

namespace {
// The server state shared with the thread: io_context and acceptor live as long as FakeHub.
struct Server {
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
};
}  // namespace

FakeHub::FakeHub(std::map<std::string, FakeRoute> routes) : routes_(std::move(routes)) {
  auto* server = new Server();
  port_ = server->acceptor.local_endpoint().port();
  thread_ = std::thread([this, server] {
    std::unique_ptr<Server> owned(server);
    while (!stop_) {
      tcp::socket sock(owned->ioc);
      beast::error_code ec;
      owned->acceptor.accept(sock, ec);
      if (ec || stop_) break;
      beast::flat_buffer buf;
      http::request<http::string_body> req;
      http::read(sock, buf, req, ec);
      if (ec) continue;
      std::string target(req.target());
      {
        std::lock_guard lock(mu_);
        requests_.emplace_back(target, std::string(req[http::field::authorization]));
      }
      http::response<http::string_body> res;
      res.version(11);
      res.keep_alive(false);
      auto it = routes_.find(target);
      if (it == routes_.end()) {
        res.result(404);
        res.body() = "Entry not found";
      } else {
        res.result(it->second.status);
        for (auto [k, v] : it->second.headers) {
          if (auto p = v.find("{port}"); p != std::string::npos) v.replace(p, 6, std::to_string(port_));
          res.set(k, v);
        }
        res.body() = it->second.body;
      }
      res.prepare_payload();
      http::write(sock, res, ec);
      sock.shutdown(tcp::socket::shutdown_both, ec);
    }
  });
}

FakeHub::~FakeHub() {
  stop_ = true;
  // Wake the blocking accept() with a connection of our own.
  try {
    asio::io_context ioc;
    tcp::socket s(ioc);
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port_)));
  } catch (...) {
  }
  thread_.join();
}

std::vector<std::pair<std::string, std::string>> FakeHub::requests() const {
  std::lock_guard lock(mu_);
  return requests_;
}

}  // namespace aiperf::test
