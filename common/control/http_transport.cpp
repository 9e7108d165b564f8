#include <chrono>
#include <thread>

#include <boost/asio/io_context.hpp>

#include "control_transport.h"
#include "http/http_client.h"
#include "time/clock.h"

namespace aiperf::control {
namespace {

class HttpTransport final : public ControlTransport {
 public:
  explicit HttpTransport(bool verify_tls) { options_.verify_tls = verify_tls; }

  // A fresh client per request: no pooled connection outlives it, so a server that restarts
  // between probe attempts is met on a new connection.
  ControlResponse send(const std::string& method, const std::string& url, const Headers& headers,
                       const std::string& body, double timeout_s) override {
    boost::asio::io_context io;
    http::ClientOptions options = options_;
    options.reuse = http::ConnectionReuse::kNever;
    http::HttpClient client(io, options);
    http::Request request;
    request.method = method;
    request.url = url;
    request.headers = headers;
    request.body = body;
    http::SendOptions send_options;
    send_options.timeout_seconds = timeout_s;
    ControlResponse out;
    client.send(std::move(request), send_options, [&out](http::Result&& r) {
      out.status = r.status;
      for (const auto& c : r.chunks) out.body += c.data;
      if (r.status == 0 && r.error) out.error = r.error->type + ": " + r.error->message;
    });
    io.run();
    return out;
  }

 private:
  http::ClientOptions options_;
};

class SteadyClock final : public ProbeClock {
 public:
  double now_s() override {
    return static_cast<double>(steady_now_ns()) / 1e9;
  }
  void sleep_s(double s) override {
    if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(s));
  }
};

}  // namespace

std::unique_ptr<ControlTransport> make_http_transport(bool verify_tls) {
  return std::make_unique<HttpTransport>(verify_tls);
}

ProbeClock& steady_probe_clock() {
  static SteadyClock clock;
  return clock;
}

std::string with_scheme(const std::string& url) {
  return url.find("://") == std::string::npos ? "http://" + url : url;
}

}  // namespace aiperf::control
