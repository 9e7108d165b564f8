// MockServer: aiperf-mock-server's listening socket and io threads. Each io thread runs its own
// io_context; the acceptor hands connections round-robin to them, and a connection then lives on
// one thread only. Usable in-process (tests start it on port 0).
#pragma once
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "grpc_server.h"
#include "mock_config.h"
#include "server_state.h"
#include "text_pool.h"

namespace aiperf::mock {

// http://HOST:PORT (IPv6 hosts in brackets).
std::string server_url(const std::string& host, uint16_t port);

class MockServer {
 public:
  MockServer(MockConfig config, TextPool pool, SharedShards shared = {});
  ~MockServer();
  MockServer(const MockServer&) = delete;
  MockServer& operator=(const MockServer&) = delete;

  // Binds, listens and starts the io threads. Throws boost::system::system_error when the
  // address cannot be bound.
  void start();

  // Closes the listener, abandons open connections and joins the io threads. Idempotent.
  void stop();

  // The bound port (the kernel's pick when configured with port 0). Valid after start().
  uint16_t port() const { return port_; }

  // http://HOST:PORT
  std::string url() const;

  // grpc://HOST:PORT of the KServe gRPC mode (MockConfig::grpc_port); empty when off.
  std::string grpc_url() const;

  // Prometheus text of this server's metrics, as GET /metrics returns it.
  std::string metrics_text() const { return state_->metrics.render(); }

 private:
  using WorkGuard = boost::asio::executor_work_guard<boost::asio::io_context::executor_type>;

  void accept();

  std::unique_ptr<ServerState> state_;  // outlives the io contexts whose sessions refer to it
  std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
  std::vector<WorkGuard> guards_;
  std::optional<boost::asio::ip::tcp::acceptor> acceptor_;  // on contexts_[0]
  std::unique_ptr<GrpcServer> grpc_;                        // its timers run on contexts_
  std::atomic<size_t> next_grpc_context_{0};
  std::optional<boost::asio::steady_timer> accept_retry_;
  std::vector<std::thread> threads_;
  size_t next_context_ = 0;
  uint16_t port_ = 0;
};

}  // namespace aiperf::mock
