// Session's --fault modes (fault_injector.h): how each one breaks a generation response.
#include <boost/asio/write.hpp>

#include "session.h"

namespace aiperf::mock {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

constexpr int kSlowPieces = 4;
constexpr std::string_view kHtml =
    "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
    "<p>The upstream server is unavailable (--fault wrong_content_type).</p></body></html>\n";
// An event whose JSON stops in the middle of a string.
constexpr std::string_view kMalformedEvent = "data: {\"id\":\"broken\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"cut\n\n";
// What vLLM/SGLang-style servers send when generation fails after the stream started.
constexpr std::string_view kErrorEvent =
    "event: error\ndata: {\"error\":{\"message\":\"injected fault (--fault error_event)\",\"type\":\"server_error\","
    "\"code\":500}}\n\n";
constexpr std::string_view kPlainReply =
    "HTTP/1.1 400 Bad Request\r\nServer: aiperf-mock-server\r\nContent-Type: text/plain\r\nContent-Length: 44\r\n"
    "Connection: close\r\n\r\nThis server speaks plain HTTP, not TLS here.";
static_assert(kPlainReply.size() - kPlainReply.find("\r\n\r\n") - 4 == 44);

}  // namespace

void Session::start() {
  if (state_.faults.watches_tls()) return check_tls_hello();
  read_header();
}

// A TLS ClientHello starts with a handshake record (0x16). The hello is read and answered in
// plaintext, as by a plain HTTP listener reached with https://, and the connection closes.
void Session::check_tls_hello() {
  socket_.async_wait(asio::ip::tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
    if (ec) return self->close();
    unsigned char first = 0;
    error_code peek_ec;
    const size_t n = self->socket_.receive(asio::buffer(&first, 1), asio::socket_base::message_peek, peek_ec);
    if (peek_ec || n != 1 || first != 0x16 || !self->state_.faults.draw_tls_failure()) return self->read_header();
    self->metrics_.faults[static_cast<size_t>(Fault::tls_handshake_failure)].add(1);
    // Read the hello first: closing with unread bytes would reset the connection instead.
    self->buffer_.consume(self->buffer_.size());
    self->socket_.read_some(self->buffer_.prepare(16 << 10), peek_ec);
    self->out_ = kPlainReply;
    self->write_then(&Session::close);
  });
}

void Session::note_fault() {
  if (fault_done_) return;
  fault_done_ = true;
  metrics_.faults[static_cast<size_t>(fault_->kind)].add(1);
}

bool Session::answer_with_fault() {
  switch (fault_->kind) {
    case Fault::reset_before_headers:
      note_fault();
      reset_connection();
      return true;
    case Fault::http_5xx:
      note_fault();
      respond_error(fault_->status, "injected fault (--fault http_5xx)", "server_error");
      return true;
    case Fault::http_429: {
      note_fault();
      const std::string retry = "Retry-After: " + std::to_string(state_.config.fault_retry_after_s) + "\r\n";
      respond(429, kJson, error_body("rate limit reached (--fault http_429)", "rate_limit_error", 429), retry);
      return true;
    }
    case Fault::wrong_content_type:
      note_fault();
      respond(200, "text/html; charset=utf-8", kHtml);
      return true;
    default:
      return false;
  }
}

bool Session::stream_fault() {
  const bool chunked = !mode_.http10;
  switch (fault_->kind) {
    case Fault::reset_mid_stream:
      note_fault();
      reset_connection();
      return true;
    case Fault::truncated_chunked:
      note_fault();
      drop_connection();
      return true;
    case Fault::stall_mid_stream:
      note_fault();
      at(Clock::now() + state_.fault_stall, &Session::send_token);
      return true;
    case Fault::malformed_json:
      note_fault();
      out_.clear();
      append_stream_data(out_, kMalformedEvent, chunked);
      write_then(&Session::send_token);  // the stream then goes on as if nothing happened
      return true;
    case Fault::error_event:
      note_fault();
      out_.clear();
      append_stream_data(out_, kErrorEvent, chunked);
      if (chunked) out_ += kLastChunk;
      write_then(&Session::finish_generation);
      return true;
    default:
      return false;
  }
}

// Non-streaming: the fault strikes in the middle of the body.
void Session::send_full_with_fault(std::string body) {
  note_fault();
  const size_t half = body.size() / 2;
  out_.clear();
  switch (fault_->kind) {
    case Fault::malformed_json:
      body.resize(half);
      break;
    case Fault::reset_mid_stream:
      append_response_head(out_, 200, kJson, body.size(), mode_);
      out_.append(body, 0, half);
      return write_then(&Session::reset_connection);
    case Fault::truncated_chunked:
      if (mode_.http10) {
        append_response_head(out_, 200, kJson, body.size(), mode_);
        out_.append(body, 0, half);
      } else {
        append_chunked_head(out_, kJson, mode_);
        append_stream_data(out_, std::string_view(body).substr(0, half), true);
      }
      return write_then(&Session::drop_connection);
    case Fault::stall_after_headers:
      append_response_head(out_, 200, kJson, body.size(), mode_);
      pending_ = std::move(body);
      return write_then(&Session::stall_then_send_pending);
    case Fault::stall_mid_stream:
      append_response_head(out_, 200, kJson, body.size(), mode_);
      out_.append(body, 0, half);
      pending_.assign(body, half);
      return write_then(&Session::stall_then_send_pending);
    case Fault::slow_headers: {
      append_response_head(out_, 200, kJson, body.size(), mode_);
      const size_t head_size = out_.size();
      out_ += body;
      return write_slowly(std::move(out_), head_size, &Session::finish_generation);
    }
    case Fault::error_event:
      // A server that streams whatever was asked: an SSE body holding only the error event.
      if (mode_.http10) mode_.keep_alive = false;
      append_stream_head(out_, mode_);
      append_stream_data(out_, kErrorEvent, !mode_.http10);
      if (!mode_.http10) out_ += kLastChunk;
      return write_then(&Session::finish_generation);
    default:  // huge_event: the body already carries it
      break;
  }
  append_response_head(out_, 200, kJson, body.size(), mode_);
  out_ += body;
  write_then(&Session::finish_generation);
}

void Session::abandon_response() {
  leave_engine();
  if (completion_ || script_) metrics_.running.add(-1);
  completion_.reset();
  script_.reset();
  pending_.clear();
  slow_.clear();
}

void Session::reset_connection() {
  abandon_response();
  error_code ignored;
  timer_.cancel();
  socket_.set_option(asio::socket_base::linger(true, 0), ignored);  // close() then sends RST
  socket_.close(ignored);
}

void Session::drop_connection() {
  abandon_response();
  close();
}

void Session::stall_then_send_token() {
  note_fault();
  at(Clock::now() + state_.fault_stall, &Session::send_token);
}

void Session::stall_then_send_pending() { at(Clock::now() + state_.fault_stall, &Session::send_pending); }

void Session::send_pending() {
  out_ = std::move(pending_);
  pending_.clear();
  write_then(&Session::finish_generation);
}

// The head in kSlowPieces pieces, piece k at start + delay * k / kSlowPieces; the last piece
// carries whatever follows the head in `bytes`.
void Session::write_slowly(std::string bytes, size_t head_size, Step next) {
  slow_ = std::move(bytes);
  slow_head_ = head_size;
  slow_pos_ = 0;
  slow_piece_ = 0;
  slow_start_ = Clock::now();
  slow_next_ = next;
  send_slow_piece();
}

void Session::send_slow_piece() {
  const auto due = slow_start_ + state_.fault_slow_headers * (slow_piece_ + 1) / kSlowPieces;
  if (due > Clock::now()) return at(due, &Session::send_slow_piece);
  ++slow_piece_;
  const size_t end = slow_piece_ < kSlowPieces ? slow_head_ * slow_piece_ / kSlowPieces : slow_.size();
  out_.assign(slow_, slow_pos_, end - slow_pos_);
  slow_pos_ = end;
  if (slow_piece_ < kSlowPieces) return write_then(&Session::send_slow_piece);
  slow_.clear();
  write_then(slow_next_);
}

}  // namespace aiperf::mock
