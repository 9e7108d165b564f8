#include "http/connection.h"

#include <sys/socket.h>

#include <cerrno>

#include <cstring>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace aiperf::http {

Connection::Connection(const net::any_io_executor& ex)
    : stream_(std::in_place_index<0>, ex) {}

Connection::Connection(const net::any_io_executor& ex, net::ssl::context& tls)
    : stream_(std::in_place_index<1>, ex, tls) {}

tcp::socket& Connection::socket() {
  if (auto* s = tls()) return s->next_layer();
  return std::get<0>(stream_);
}

net::awaitable<std::tuple<error_code, size_t>> Connection::receive(size_t read_size) {
  if (auto* s = tls()) {
    auto [ec, n] = co_await s->async_read_some(buffer_.prepare(kReadSize), use_ec);
    buffer_.commit(n);
    co_return std::tuple{ec, n};
  }
  tcp::socket& socket = std::get<0>(stream_);
  if (read_size > 0) {
    // An asio read: it reads at once when the last read left bytes behind, and otherwise just
    // queues on the edge-triggered epoll registration (an async_wait re-arms the descriptor
    // with an epoll_ctl each time: a syscall per chunk of a stream).
    const size_t want = last_read_filled_ ? kReadSize : read_size;
    auto [ec, n] = co_await socket.async_read_some(buffer_.prepare(want), use_ec);
    buffer_.commit(n);
    last_read_filled_ = n == want;
    co_return std::tuple{ec, n};
  }
  // Wait until readable, then read into one scratch buffer per thread and keep only the
  // bytes: a connection waiting for its response so holds no read buffer (a prepared 16 KiB
  // each would be most of a waiting stream's memory at 100 000 streams).
  thread_local std::array<char, kReadSize> scratch;
  for (;;) {
    auto [wec] = co_await socket.async_wait(tcp::socket::wait_read, use_ec);
    if (wec) co_return std::tuple{wec, size_t{0}};
    error_code ec;  // the socket is non-blocking (connect): a spurious wake-up gives would_block
    const size_t n = socket.read_some(net::buffer(scratch), ec);
    if (ec == net::error::would_block || ec == net::error::try_again) continue;
    if (n > 0) {
      std::memcpy(buffer_.prepare(n).data(), scratch.data(), n);
      buffer_.commit(n);
    }
    last_read_filled_ = n == scratch.size();
    co_return std::tuple{ec, n};
  }
}

net::awaitable<std::tuple<error_code, size_t>> Connection::write(
    std::array<net::const_buffer, 2> parts) {
  if (auto* s = tls()) co_return co_await net::async_write(*s, parts, use_ec);
  co_return co_await net::async_write(std::get<0>(stream_), parts, use_ec);
}

bool Connection::usable_when_idle(bool peek) {
  if (buffer_.size() > 0 && !tls()) return false;  // bytes nobody asked for
  if (!peek) return true;
  char byte;
  const ssize_t n = ::recv(socket().native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n == 0) return false;                                      // FIN: closed by the server
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;     // nothing waiting, or RST
  return tls() != nullptr;  // TLS may deliver records unasked (TLS 1.3 session tickets)
}

void Connection::close() {
  error_code ignored;
  socket().close(ignored);
}

}  // namespace aiperf::http
