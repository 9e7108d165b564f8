// FakeHttpServer: an in-process HTTP/1.1 (optionally TLS) server on 127.0.0.1, port 0, for
// client tests. Each request is answered by a scripted FakeResponse: status, headers and
// body parts written one by one, optionally held back until the test calls release(), so
// chunk boundaries are deterministic rather than timing-dependent. Runs its own io thread.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace aiperf::testing {

struct FakeRequest {
  std::string method;
  std::string target;
  std::vector<std::pair<std::string, std::string>> headers;  // in wire order
  std::string body;

  // First value of `name` (case-insensitive), or "" when absent.
  std::string header(const std::string& name) const;
  size_t header_count(const std::string& name) const;
};

struct FakeResponse {
  int status = 200;
  std::string reason;  // empty = the standard phrase
  std::vector<std::pair<std::string, std::string>> headers;
  std::vector<std::string> body_parts;  // each written separately
  bool chunked = false;                 // Transfer-Encoding: chunked, else Content-Length
  bool gate_parts = false;              // before each part after the first, wait for release()
  bool close_after = false;             // send Connection: close, then close the socket
  bool close_silently = false;          // close after the response without saying so
  bool http10 = false;                  // HTTP/1.0, no length: closing delimits the body
  bool never_answer = false;            // read the request, then wait until the client leaves
  bool reset_without_answer = false;    // read the request, then reset the connection (RST)
  bool close_without_answer = false;    // read the request, then close gracefully (FIN), as a
                                        // server closing a kept-alive connection does
};

// PEM certificate chain and private key for the TLS mode.
struct TlsIdentity {
  std::string cert_pem;
  std::string key_pem;
};

class FakeHttpServer {
 public:
  using Handler = std::function<FakeResponse(const FakeRequest&)>;

  explicit FakeHttpServer(Handler handler, const TlsIdentity* tls = nullptr);
  ~FakeHttpServer();
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;

  uint16_t port() const { return port_; }
  // Lets one gated body part be written (thread-safe).
  void release();
  int connections_accepted() const { return accepted_.load(); }
  // Connections this server closed itself (close_after, close_silently, http10, reset).
  int connections_closed() const { return closed_.load(); }
  std::vector<FakeRequest> requests() const;

 private:
  struct Session;
  void start_accept();
  void record(const FakeRequest& request);

  Handler handler_;
  boost::asio::io_context io_;
  std::unique_ptr<boost::asio::ssl::context> tls_;
  boost::asio::ip::tcp::acceptor acceptor_;
  boost::asio::steady_timer gate_;  // cancelled to wake gated writers
  int permits_ = 0;                 // io thread only
  uint16_t port_ = 0;
  std::atomic<int> closed_{0};
  std::atomic<int> accepted_{0};
  mutable std::mutex mutex_;
  std::vector<FakeRequest> requests_;
  std::thread thread_;
};

}  // namespace aiperf::testing
