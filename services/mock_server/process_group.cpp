#include "process_group.h"

#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "metrics.h"
#include "mock_server.h"

namespace aiperf::mock {
namespace {

// Binds (without listening) a SO_REUSEPORT socket to host:port, so that a port of 0 becomes a
// definite one every child then binds too. A socket that does not listen takes no connections.
int reserve_port(const MockConfig& config, uint16_t& port) {
  boost::asio::io_context io;
  boost::asio::ip::tcp::resolver resolver(io);
  const auto endpoint = *resolver.resolve(config.host, std::to_string(config.port)).begin();
  const int fd = ::socket(endpoint.endpoint().protocol().family(), SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("cannot open a socket for " + config.host);
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
  if (::bind(fd, endpoint.endpoint().data(), endpoint.endpoint().size()) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot bind " + config.host + ":" + std::to_string(config.port));
  }
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  port = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                           : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return fd;
}

[[noreturn]] void serve_child(const MockConfig& config, const TextPool& pool, SharedShards shards, int ready_fd,
                              const sigset_t& signals) {
  int code = 0;
  try {
    MockServer server(config, pool, shards);
    server.start();
    const char ok = 1;
    (void)!::write(ready_fd, &ok, 1);
    ::close(ready_fd);
    int received = 0;
    sigwait(&signals, &received);
    server.stop();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "aiperf-mock-server (process %zu): %s\n", shards.first / config.workers, e.what());
    code = 1;
  }
  std::fflush(stderr);
  ::_exit(code);  // the parent's atexit handlers and buffers are not ours to run
}

void stop_all(const std::vector<pid_t>& children) {
  for (pid_t pid : children) ::kill(pid, SIGTERM);
  for (pid_t pid : children) ::waitpid(pid, nullptr, 0);
}

}  // namespace

int serve_in_processes(MockConfig config, const TextPool& pool, const sigset_t& signals) {
  if (!config.record_requests.empty())
    throw std::runtime_error("--record-requests needs a single process (drop --processes)");
  // Blocked before any child exists, so that a death is pending for sigwait below.
  sigset_t child_signal;
  sigemptyset(&child_signal);
  sigaddset(&child_signal, SIGCHLD);
  pthread_sigmask(SIG_BLOCK, &child_signal, nullptr);
  const int reserved = reserve_port(config, config.port);
  const SharedShards shared = make_shared_shards(size_t{config.processes} * config.workers);
  int ready[2];
  if (::pipe2(ready, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<pid_t> children;
  for (unsigned i = 0; i < config.processes; ++i) {
    const pid_t pid = ::fork();
    if (pid < 0) {
      stop_all(children);
      throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
      ::close(ready[0]);
      ::close(reserved);
      serve_child(config, pool, {shared.shards, shared.total, size_t{i} * config.workers}, ready[1], signals);
    }
    children.push_back(pid);
  }
  ::close(ready[1]);
  // Every child writes one byte once it listens; a child that fails closes its end unwritten.
  unsigned serving = 0;
  char byte;
  while (serving < config.processes && ::read(ready[0], &byte, 1) == 1) ++serving;
  ::close(ready[0]);
  ::close(reserved);
  if (serving < config.processes) {
    stop_all(children);
    return 1;
  }
  std::printf("aiperf-mock-server listening on %s\n", server_url(config.host, config.port).c_str());
  std::fflush(stdout);
  // SIGCHLD joins the awaited signals: a child that dies takes the group down.
  sigset_t awaited = signals;
  sigaddset(&awaited, SIGCHLD);
  int received = 0;
  sigwait(&awaited, &received);
  stop_all(children);
  return received == SIGCHLD ? 1 : 0;
}

}  // namespace aiperf::mock
