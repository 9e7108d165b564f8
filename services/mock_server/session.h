// Session: one client connection, served entirely on the io thread that owns its socket (so it
// needs no strand). HTTP/1.1 keep-alive: requests are handled one after another; a generation
// response paces its tokens on an absolute schedule from the request's arrival.
#pragma once
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "completion_format.h"
#include "retrieval_responses.h"
#include "scripted_apis.h"
#include "http_wire.h"
#include "routes.h"
#include "server_state.h"

namespace aiperf::mock {

inline constexpr std::string_view kJson = "application/json";

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(boost::asio::ip::tcp::socket socket, ServerState& state, MetricsShard& metrics);

  // Must run on the socket's executor.
  void start();

 private:
  using Clock = std::chrono::steady_clock;
  using Step = void (Session::*)();

  void read_header();
  void read_body();
  void handle_request();
  void handle_generation(Api api, bool stream = false);
  void handle_retrieval(RetrievalApi api);
  void handle_scripted_route();  // the routes answered by scripted_apis.h
  void handle_video();           // /v1/videos jobs (video_api.h), answered at once

  // A ScriptedReply's pieces, each at its deadline (session_scripted.cpp).
  void start_scripted(ScriptedOrBad reply);
  void send_scripted_piece();
  void finish_scripted();
  void respond(int status, std::string_view content_type, std::string_view body,
               std::string_view extra_headers = {});
  void respond_error(int status, std::string_view message, std::string_view type);

  void start_generation(GenerationRequest request);
  void at(Clock::time_point deadline, Step step);
  void send_full_completion();
  void send_stream_head();
  void send_token();
  void send_stream_tail();
  void finish_generation();

  // --engine-slots (session_engine.cpp): the engine model paces the generation.
  bool enter_engine(const GenerationRequest& request);  // false: refused, 429 sent
  void on_engine_event(const EngineEvent& event);
  bool engine_has_token();  // the engine has emitted token next_token_; else waits for it
  void send_full_when_done();
  void leave_engine();  // the response ends: a sequence still in the engine is cancelled

  // --fault modes (session_faults.cpp).
  void check_tls_hello();      // tls_handshake_failure: the connection's first byte
  bool answer_with_fault();    // faults that replace the whole response; true when one did
  bool stream_fault();         // the fault due at the current token took over; true when it did
  void send_full_with_fault(std::string body);
  void note_fault();           // counts the fault, once per response
  void abandon_response();     // the response will not complete: its accounting ends here
  void reset_connection();     // RST, no FIN
  void drop_connection();      // FIN mid-response
  void stall_then_send_token();
  void stall_then_send_pending();
  void send_pending();
  void write_slowly(std::string bytes, size_t head_size, Step next);
  void send_slow_piece();

  void write_then(Step next);
  void next_request();
  void close();
  void drain_then_close();  // --close-after-stream (session_quirks.cpp)
  void drain_some();
  void log_access(int status) const;

  boost::asio::ip::tcp::socket socket_;
  boost::asio::steady_timer timer_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  ServerState& state_;
  MetricsShard& metrics_;
  std::string out_;    // bytes of the write in flight
  std::string event_;  // scratch for one SSE event before framing

  // The request being answered.
  Route route_ = Route::not_found;
  ConnectionMode mode_;
  bool head_ = false;  // a HEAD request: headers only
  Clock::time_point arrival_;
  std::optional<CompletionFormatter> completion_;
  int next_token_ = 0;
  Clock::time_point last_token_sent_;
  std::optional<ScriptedReply> script_;
  size_t script_next_ = 0;

  // The fault this response gets (--fault), and its state.
  std::optional<FaultDecision> fault_;
  bool fault_done_ = false;  // counted, and (for one-shot faults) already applied
  std::string pending_;      // the rest of a stalled non-streaming body
  std::string slow_;         // slow_headers: what is left to trickle out
  size_t slow_head_ = 0, slow_pos_ = 0;
  int slow_piece_ = 0;
  Clock::time_point slow_start_;
  Step slow_next_ = nullptr;

  // The sequence in the engine model (--engine-slots), and how far it is.
  std::optional<uint64_t> engine_id_;
  int engine_tokens_ = 0;    // tokens emitted so far
  bool engine_done_ = false;
  Step engine_next_ = nullptr;  // the step waiting for the engine's next event
};

}  // namespace aiperf::mock
