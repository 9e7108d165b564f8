// A small HTTP/1.1 server (Boost.Beast) on its own thread, for the live API. Handlers run on
// that thread; the handler owner provides any locking. GET and HEAD only.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace aiperf::controller::api {

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class HttpServer {
 public:
  // `path` is the request target without its query string.
  using Handler = std::function<HttpResponse(std::string_view path)>;

  // Binds host:port now (throws std::runtime_error naming the address if it cannot) and
  // serves until stop().
  HttpServer(const std::string& host, uint16_t port, Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Closes the listener and every connection, joins the thread. Idempotent.
  void stop();
  uint16_t port() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::controller::api
