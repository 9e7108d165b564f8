// ZmqWatch over real ZeroMQ sockets (tcp on loopback, so ZeroMQ's own io thread signals the
// socket as in a run): no message is ever left unread, whether it arrives in bursts from
// another thread or while the watched socket itself is sending.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <chrono>
#include <random>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <zmq.hpp>

#include "zmq_watch.h"

using aiperf::worker::ZmqWatch;

namespace {

std::string bind_loopback(zmq::socket_t& s) {
  s.bind("tcp://127.0.0.1:*");
  return s.get(zmq::sockopt::last_endpoint);
}

// Runs `io` until stop() or the deadline; false when the deadline ended it.
bool run_until_stopped(boost::asio::io_context& io, std::chrono::seconds deadline) {
  std::atomic<bool> timed_out{false};
  boost::asio::steady_timer timer(io, deadline);
  timer.async_wait([&](const boost::system::error_code& ec) {
    if (ec) return;
    timed_out = true;
    io.stop();
  });
  io.run();
  return !timed_out;
}

}  // namespace

TEST_CASE("every message pushed from another thread is read, in bursts and in trickles") {
  zmq::context_t ctx;
  zmq::socket_t pull(ctx, zmq::socket_type::pull);
  const std::string endpoint = bind_loopback(pull);
  constexpr int kMessages = 20000;
  boost::asio::io_context io;
  int received = 0;
  ZmqWatch watch(io, pull, [&] {
    zmq::message_t msg;
    while (pull.recv(msg, zmq::recv_flags::dontwait)) {
      if (++received == kMessages) io.stop();
    }
  });
  std::thread sender([&] {
    zmq::socket_t push(ctx, zmq::socket_type::push);
    push.connect(endpoint);
    std::mt19937 rng(7);
    for (int sent = 0; sent < kMessages;) {
      const int burst = std::uniform_int_distribution<int>(1, 200)(rng);
      for (int i = 0; i < burst && sent < kMessages; ++i, ++sent) push.send(zmq::buffer(&sent, sizeof sent));
      if (rng() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 300));
    }
    push.set(zmq::sockopt::linger, 5000);
  });
  boost::asio::post(io, [&] { watch.start(); });
  const bool done = run_until_stopped(io, std::chrono::seconds(20));
  sender.join();
  CHECK(done);
  CHECK(received == kMessages);
}

TEST_CASE("replies are read while the watched socket sends the next request from its own handler") {
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  const std::string endpoint = bind_loopback(router);
  std::atomic<bool> stop_echo{false};
  std::thread echo([&] {  // answers each request at once, as the dataset service does
    zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
    while (!stop_echo) {
      zmq::poll(&item, 1, std::chrono::milliseconds(10));
      zmq::message_t id, body;
      while (router.recv(id, zmq::recv_flags::dontwait)) {
        (void)router.recv(body, zmq::recv_flags::dontwait);
        router.send(id, zmq::send_flags::sndmore);
        router.send(body, zmq::send_flags::none);
      }
    }
  });
  zmq::socket_t dealer(ctx, zmq::socket_type::dealer);
  dealer.connect(endpoint);
  boost::asio::io_context io;
  constexpr int kRoundTrips = 3000;
  constexpr int kWindow = 4;  // requests out at once, as a worker asking for several conversations
  int replies = 0, sent = 0;
  std::unique_ptr<ZmqWatch> watch;
  auto send_one = [&] {
    dealer.send(zmq::buffer(&sent, sizeof sent), zmq::send_flags::none);
    ++sent;
    watch->drain_later();
  };
  watch = std::make_unique<ZmqWatch>(io, dealer, [&] {
    zmq::message_t msg;
    while (dealer.recv(msg, zmq::recv_flags::dontwait)) {
      if (++replies == kRoundTrips) return io.stop();
      if (sent < kRoundTrips) send_one();  // the send that may take the readiness signal
    }
  });
  boost::asio::post(io, [&] {
    watch->start();
    for (int i = 0; i < kWindow; ++i) send_one();
  });
  const bool done = run_until_stopped(io, std::chrono::seconds(20));
  stop_echo = true;
  echo.join();
  CHECK(done);
  CHECK(replies == kRoundTrips);
}
