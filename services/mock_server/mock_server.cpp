#include "mock_server.h"

#include <boost/asio/post.hpp>
#include <cstdio>

#include "session.h"

namespace aiperf::mock {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

MockServer::MockServer(MockConfig config, TextPool pool, SharedShards shared)
    : state_(std::make_unique<ServerState>(std::move(config), std::move(pool), shared)) {
  for (unsigned i = 0; i < state_->config.workers; ++i) {
    contexts_.push_back(std::make_unique<asio::io_context>(1));  // 1: each context runs on one thread
    guards_.push_back(asio::make_work_guard(*contexts_.back()));
  }
}

MockServer::~MockServer() { stop(); }

void MockServer::start() {
  const MockConfig& config = state_->config;
  tcp::resolver resolver(*contexts_[0]);
  const tcp::endpoint endpoint = *resolver.resolve(config.host, std::to_string(config.port)).begin();
  acceptor_.emplace(*contexts_[0]);
  acceptor_->open(endpoint.protocol());
  acceptor_->set_option(tcp::acceptor::reuse_address(true));
  // --processes: every process listens on the same port and the kernel spreads connections
  // over them.
  if (config.processes > 1) acceptor_->set_option(asio::detail::socket_option::boolean<SOL_SOCKET, SO_REUSEPORT>(true));
  acceptor_->bind(endpoint);
  acceptor_->listen(asio::socket_base::max_listen_connections);
  port_ = acceptor_->local_endpoint().port();
  accept_retry_.emplace(*contexts_[0]);
  accept();
  for (auto& context : contexts_) threads_.emplace_back([&context] { context->run(); });
  if (config.grpc_port >= 0) {
    grpc_ = std::make_unique<GrpcServer>(*state_, [this]() -> asio::io_context& {
      return *contexts_[next_grpc_context_.fetch_add(1) % contexts_.size()];
    });
    grpc_->start(config.host, static_cast<uint16_t>(config.grpc_port));
  }
}

std::string MockServer::grpc_url() const {
  if (!grpc_) return "";
  const std::string& host = state_->config.host;
  const bool ipv6 = host.find(':') != std::string::npos;
  return "grpc://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(grpc_->port());
}

void MockServer::accept() {
  asio::io_context& target = *contexts_[next_context_];
  const size_t shard = next_context_;
  next_context_ = (next_context_ + 1) % contexts_.size();
  acceptor_->async_accept(target, [this, shard](error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted) return;
    if (ec) {
      // Typically EMFILE under a connection storm: back off instead of spinning on the error.
      std::fprintf(stderr, "aiperf-mock-server: accept failed: %s\n", ec.message().c_str());
      accept_retry_->expires_after(std::chrono::milliseconds(10));
      accept_retry_->async_wait([this](error_code wait_ec) {
        if (!wait_ec) accept();
      });
      return;
    }
    socket.set_option(tcp::no_delay(true), ec);  // tokens are tiny writes that must leave at once
    auto session = std::make_shared<Session>(std::move(socket), *state_, state_->metrics.shard(shard));
    asio::post(contexts_[shard]->get_executor(), [session] { session->start(); });
    accept();
  });
}

void MockServer::stop() {
  if (state_->engine) state_->engine->stop();  // it posts to the io contexts: stops before them
  if (threads_.empty()) return;
  if (grpc_) grpc_->stop();  // its calls end on the io contexts: before they stop
  guards_.clear();
  for (auto& context : contexts_) context->stop();
  for (auto& thread : threads_) thread.join();
  threads_.clear();
  // No io thread runs any more, so the acceptor can be closed from here.
  error_code ignored;
  acceptor_->close(ignored);
}

std::string server_url(const std::string& host, uint16_t port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string MockServer::url() const { return server_url(state_->config.host, port_); }

}  // namespace aiperf::mock
