// One client connection, plain TCP or TLS over TCP, with the read buffer that outlives a
// single response (a keep-alive connection may carry the next one). Owned by exactly one
// request at a time, or by the idle pool.
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <variant>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>

namespace aiperf::http {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using error_code = boost::system::error_code;
// Completion token of the client's coroutines: an awaited operation returns its error code in a
// tuple instead of throwing.
inline constexpr auto use_ec = net::as_tuple(net::use_awaitable);

class Connection {
 public:
  explicit Connection(const net::any_io_executor& ex);                // plain TCP
  Connection(const net::any_io_executor& ex, net::ssl::context& tls);  // TLS

  tcp::socket& socket();
  net::ssl::stream<tcp::socket>* tls() { return std::get_if<1>(&stream_); }

  // Waits for bytes and appends what is available (at most kReadSize) to buffer(). With
  // `read_size` 0 the wait holds no buffer (plain TCP); otherwise the read is prepared in
  // buffer() with read_size bytes (kReadSize while reads keep filling it).
  net::awaitable<std::tuple<error_code, size_t>> receive(size_t read_size);
  static constexpr size_t kReadSize = 16 * 1024;  // per read: bounds one chunk, not the body
  // Writes `head` then `body` completely.
  net::awaitable<std::tuple<error_code, size_t>> write(std::array<net::const_buffer, 2> parts);

  // An idle kept-alive connection is still usable: over plain TCP the server sent nothing
  // unasked, and, with `peek`, it has not closed it (FIN or RST waiting): one non-blocking
  // peek, no wait. Without, a closed one is found when the request is written or answered
  // with a FIN, and retried (ClientCore's kStale).
  bool usable_when_idle(bool peek);

  // When the connection last finished a response (steady clock, ns); 0 = never.
  int64_t idle_since_ns = 0;

  // Closes the socket: pending operations complete with operation_aborted. No TLS
  // close_notify: the connection is being abandoned and a shutdown could block.
  void close();

  boost::beast::flat_buffer& buffer() { return buffer_; }

  // Both ends, recorded once when connected so that reusing the connection costs no syscall.
  tcp::endpoint local_endpoint;
  tcp::endpoint remote_endpoint;
  std::string local_ip, remote_ip;  // the endpoints' addresses as text, for every request's trace

 private:
  std::variant<tcp::socket, net::ssl::stream<tcp::socket>> stream_;
  boost::beast::flat_buffer buffer_;  // received but not yet parsed bytes
  bool last_read_filled_ = false;     // the last read filled its buffer: more is likely waiting
};

}  // namespace aiperf::http
