#include "http/connection.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace aiperf::http {

namespace {
constexpr auto use_ec = net::as_tuple(net::use_awaitable);
}  // namespace

Connection::Connection(const net::any_io_executor& ex)
    : stream_(std::in_place_index<0>, ex) {}

Connection::Connection(const net::any_io_executor& ex, net::ssl::context& tls)
    : stream_(std::in_place_index<1>, ex, tls) {}

tcp::socket& Connection::socket() {
  if (auto* s = tls()) return s->next_layer();
  return std::get<0>(stream_);
}

net::awaitable<std::tuple<error_code, size_t>> Connection::read_some(net::mutable_buffer buffer) {
  if (auto* s = tls()) co_return co_await s->async_read_some(buffer, use_ec);
  co_return co_await std::get<0>(stream_).async_read_some(buffer, use_ec);
}

net::awaitable<std::tuple<error_code, size_t>> Connection::write(
    std::array<net::const_buffer, 2> parts) {
  if (auto* s = tls()) co_return co_await net::async_write(*s, parts, use_ec);
  co_return co_await net::async_write(std::get<0>(stream_), parts, use_ec);
}

void Connection::close() {
  error_code ignored;
  socket().close(ignored);
}

}  // namespace aiperf::http
