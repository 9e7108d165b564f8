// ZmqWatch: runs a handler on an Asio io_context whenever a ZeroMQ socket has messages, so one
// thread can serve HTTP and ZeroMQ together. ZeroMQ signals through ZMQ_FD, which is
// edge-like: it turns readable when commands arrive and is cleared by any use of the socket
// (recv, send, ZMQ_EVENTS). So the wait is always re-armed before the socket is drained, and
// the socket is drained until ZMQ_EVENTS shows no input: a signal that comes in between is
// seen by the armed wait. After a send elsewhere, drain_later() checks again, from a fresh
// handler (never inside the caller, whose state a nested handler would change under it).
#pragma once
#include <functional>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <zmq.hpp>

namespace aiperf::worker {

class ZmqWatch {
 public:
  // `on_readable` must read at least one message (it is called while ZMQ_EVENTS has input).
  ZmqWatch(boost::asio::io_context& io, zmq::socket_t& socket, std::function<void()> on_readable);
  ~ZmqWatch();  // leaves the descriptor open: ZeroMQ owns it
  ZmqWatch(const ZmqWatch&) = delete;
  ZmqWatch& operator=(const ZmqWatch&) = delete;

  void start();        // on the io_context's thread
  void drain_later();  // after a send on the socket: look for input once the caller is done

 private:
  void arm();
  void drain();

  boost::asio::io_context& io_;
  zmq::socket_t& socket_;
  boost::asio::posix::stream_descriptor fd_;
  std::function<void()> on_readable_;
  bool drain_posted_ = false;
  boost::asio::steady_timer retry_;  // re-arms after a failed wait
};

}  // namespace aiperf::worker
