// Modes that imitate real servers' connection habits, so the fast suite covers what tests against
// the real servers found (tests/real_server/).
#include <chrono>

#include "session.h"

namespace aiperf::mock {

namespace asio = boost::asio;
using boost::system::error_code;

// llama.cpp's server (cpp-httplib) ends the connection after each streamed response although the
// response said keep-alive: it shuts down its sending side, then reads and discards what the
// client sent for up to 100 ms, then closes, so no RST. Waiting for the client's next request
// before the FIN makes the client meet the case it must handle (a request written on a kept-alive
// connection, answered by FIN) every time, not only when it wins a race.
void Session::drain_then_close() {
  timer_.expires_after(std::chrono::milliseconds(100));
  timer_.async_wait([self = shared_from_this()](error_code ec) {
    if (!ec) self->close();
  });
  drain_some();
}

void Session::drain_some() {
  out_.resize(4096);
  socket_.async_read_some(asio::buffer(out_), [self = shared_from_this()](error_code ec, size_t) {
    if (ec) return self->close();  // the client closed too, or the timer did
    error_code ignored;
    self->socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);  // FIN, unanswered
    self->drain_some();
  });
}

}  // namespace aiperf::mock
