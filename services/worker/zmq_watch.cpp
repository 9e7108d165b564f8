#include "zmq_watch.h"

#include <boost/asio/post.hpp>

#include "log/log.h"

namespace aiperf::worker {

ZmqWatch::ZmqWatch(boost::asio::io_context& io, zmq::socket_t& socket, std::function<void()> on_readable)
    : io_(io), socket_(socket), fd_(io, socket.get(zmq::sockopt::fd)), on_readable_(std::move(on_readable)), retry_(io) {}

ZmqWatch::~ZmqWatch() {
  boost::system::error_code ignored;
  fd_.cancel(ignored);
  retry_.cancel();
  fd_.release();
}

void ZmqWatch::start() {
  arm();
  drain();  // messages that came before the first wait
}

void ZmqWatch::arm() {
  fd_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
    if (ec == boost::asio::error::operation_aborted) return;  // the watch is going away
    if (ec) {
      // Never deaf, never spinning: look again every millisecond.
      AIPERF_LOG(kError) << "ZeroMQ descriptor wait failed (" << ec.message() << "); polling every 1 ms";
      retry_.expires_after(std::chrono::milliseconds(1));
      retry_.async_wait([this](const boost::system::error_code& e) {
        if (e) return;
        arm();
        drain();
      });
      return;
    }
    arm();
    drain();
  });
}

void ZmqWatch::drain() {
  while (socket_.get(zmq::sockopt::events) & ZMQ_POLLIN) on_readable_();
}

void ZmqWatch::drain_later() {
  if (drain_posted_) return;
  drain_posted_ = true;
  boost::asio::post(io_, [this] {
    drain_posted_ = false;
    drain();
  });
}

}  // namespace aiperf::worker
