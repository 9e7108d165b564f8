#include "session.h"

#include "llama_timings.h"
#include "metrics_pages.h"

#include <algorithm>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <cstdio>
#include <ctime>

namespace aiperf::mock {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using boost::system::error_code;

namespace {

constexpr uint64_t kBodyLimit = 64ull << 20;  // long-context prompts are megabytes at most
constexpr uint32_t kHeaderLimit = 64u << 10;
}  // namespace

Session::Session(asio::ip::tcp::socket socket, ServerState& state, MetricsShard& metrics)
    : socket_(std::move(socket)), timer_(socket_.get_executor()), state_(state), metrics_(metrics) {}

void Session::read_header() {
  parser_.emplace();
  parser_->body_limit(kBodyLimit);
  parser_->header_limit(kHeaderLimit);
  http::async_read_header(socket_, buffer_, *parser_, [self = shared_from_this()](error_code ec, size_t) {
    if (ec) return self->close();  // includes the client closing between requests
    // curl sends Expect: 100-continue for larger bodies and waits for this before sending them.
    if (self->parser_->get()[http::field::expect] == "100-continue") {
      self->out_ = "HTTP/1.1 100 Continue\r\n\r\n";
      return self->write_then(&Session::read_body);
    }
    self->read_body();
  });
}

void Session::read_body() {
  http::async_read(socket_, buffer_, *parser_, [self = shared_from_this()](error_code ec, size_t) {
    if (ec) return self->close();
    self->handle_request();
  });
}

void Session::handle_request() {
  arrival_ = Clock::now();
  fault_.reset();
  fault_done_ = false;
  const auto& request = parser_->get();
  mode_ = {request.keep_alive(), request.version() < 11};
  head_ = request.method() == http::verb::head;
  route_ = match_route(request.method(), request.target());
  if (auto answer = state_.control.handle(request.method() == http::verb::post, request.target(),
                                          [&request](const std::string& name) { return request[name]; }))
    return respond(answer->status, kJson, answer->body);
  if (state_.recorder.enabled() && request.method() == http::verb::post)
    state_.recorder.record(request.target(), request.body());
  switch (route_) {
    case Route::chat_completions:
      return handle_generation(Api::chat);
    case Route::completions:
      return handle_generation(Api::completions);
    case Route::tgi_generate:
      return handle_generation(Api::tgi_generate, false);
    case Route::tgi_generate_stream:
      return handle_generation(Api::tgi_generate, true);
    case Route::embeddings:
      return handle_retrieval(RetrievalApi::embeddings);
    case Route::nim_ranking:
      return handle_retrieval(RetrievalApi::nim_ranking);
    case Route::tei_rerank:
      return handle_retrieval(RetrievalApi::tei_rerank);
    case Route::cohere_rerank:
      return handle_retrieval(RetrievalApi::cohere_rerank);
    case Route::responses:
    case Route::image_generations:
    case Route::solido_rag:
    case Route::triton_generate:
    case Route::triton_generate_stream:
    case Route::messages:
    case Route::image_retrieval:
    case Route::image_edits:
    case Route::audio_transcriptions:
      return handle_scripted_route();
    case Route::videos:
    case Route::video_job:
      return handle_video();
    case Route::models:
      return respond(200, kJson, state_.models_body);
    case Route::health:
      return respond(200, kJson, R"({"status":"healthy"})");
    case Route::root:
      return respond(200, kJson, state_.root_body);
    case Route::metrics: {
      std::optional<std::string> page = metrics_page(state_, request.target());
      if (!page) return respond_error(404, "no route for " + std::string(request.target()), "not_found_error");
      return respond(200, "text/plain; version=0.0.4; charset=utf-8", *page);
    }
    case Route::not_found:
      return respond_error(404, "no route for " + std::string(request.target()), "not_found_error");
    case Route::method_not_allowed:
      return respond_error(405, "method not allowed", "invalid_request_error");
  }
}

void Session::handle_generation(Api api, bool stream) {
  auto parsed = parse_generation_request(api, parser_->get().body(), stream);
  if (auto* bad = std::get_if<BadRequest>(&parsed))
    return respond_error(400, bad->message, "invalid_request_error");
  if (state_.errors.should_fail()) return respond_error(500, "injected error (--error-rate)", "server_error");
  if (const auto limit = state_.config.max_context) {
    const auto& g = std::get<GenerationRequest>(parsed);
    const uint64_t asked = static_cast<uint64_t>(std::max(0, g.prompt_tokens)) + std::max(0, g.output_tokens);
    if (asked > *limit)
      return respond_error(400,
                           "This model's maximum context length is " + std::to_string(*limit) +
                               " tokens. However, you requested " + std::to_string(asked) + " tokens (" +
                               std::to_string(g.prompt_tokens) + " in the messages, " +
                               std::to_string(g.output_tokens) +
                               " in the completion). Please reduce the length of the messages or completion.",
                           "BadRequestError");
  }
  fault_ = state_.faults.draw();
  if (fault_ && answer_with_fault()) return;
  GenerationRequest& gen = std::get<GenerationRequest>(parsed);
  if (const ReplyRule* rule = find_reply_rule(state_.config.reply_rules, parser_->get().body())) {
    gen.scripted_json = rule->reply_json;  // one token: the whole reply
    gen.output_tokens = 1;
    gen.hit_limit = false;
  }
  start_generation(std::move(gen));
}

// Embeddings and rankings answer after base + per-item latency (spec §8.1).
void Session::handle_retrieval(RetrievalApi api) {
  const bool embeddings = api == RetrievalApi::embeddings;
  start_scripted(retrieval_reply(api, parser_->get().body(),
                                 embeddings ? state_.embedding_latency.base : state_.ranking_latency.base,
                                 embeddings ? state_.embedding_latency.per_item : state_.ranking_latency.per_item));
}

void Session::respond(int status, std::string_view content_type, std::string_view body,
                      std::string_view extra_headers) {
  metrics_.count_request(route_, status);
  log_access(status);
  out_.clear();
  append_response_head(out_, status, content_type, body.size(), mode_, extra_headers);
  if (!head_) out_ += body;  // a HEAD answer has the GET answer's headers and no body
  write_then(&Session::next_request);
}

void Session::respond_error(int status, std::string_view message, std::string_view type) {
  respond(status, kJson, error_body(message, type, status));
}

void Session::start_generation(GenerationRequest request) {
  if (state_.engine && !enter_engine(request)) return;
  metrics_.count_request(route_, 200);
  metrics_.prompt_tokens.add(request.prompt_tokens);
  metrics_.running.add(1);
  log_access(200);
  const auto id = state_.next_response_id.fetch_add(1, std::memory_order_relaxed);
  completion_.emplace(std::move(request), state_.pool, id, static_cast<int64_t>(std::time(nullptr)));
  if (state_.config.timings && completion_->request().api != Api::tgi_generate) {
    const auto& req = completion_->request();
    completion_->set_timings(llama_timings_json(req.prompt_tokens, req.output_tokens,
                                                std::chrono::duration<double, std::milli>(state_.ttft).count(),
                                                std::chrono::duration<double, std::milli>(state_.itl).count()));
  }
  if (state_.config.usage.active() && completion_->request().api != Api::tgi_generate) {
    const auto& req = completion_->request();
    completion_->set_usage_extras(usage_extra_members(state_.config.usage, req.prompt_tokens));
    completion_->set_spec_decode(spec_decode_json(state_.config.usage, req.output_tokens));
  }
  next_token_ = 0;
  if (!completion_->request().stream) {
    // The whole answer is ready when its last token would have been streamed, so streaming and
    // non-streaming requests of the same length take the same time.
    const auto last_token = completion_->request().output_tokens - 1;
    if (engine_id_) return send_full_when_done();
    return at(arrival_ + state_.ttft + last_token * state_.itl, &Session::send_full_completion);
  }
  if (mode_.http10) mode_.keep_alive = false;  // the stream ends when the connection does
  send_stream_head();
}

// Runs `step` at the absolute `deadline`, at once if it has passed: late tokens catch up rather
// than shifting every later one (no accumulated drift).
void Session::at(Clock::time_point deadline, Step step) {
  if (deadline <= Clock::now()) return (this->*step)();
  timer_.expires_at(deadline);
  timer_.async_wait([self = shared_from_this(), step](error_code ec) {
    if (ec) return self->close();
    (self.get()->*step)();
  });
}

void Session::send_full_completion() {
  const bool huge = fault_ && fault_->kind == Fault::huge_event;
  std::string body = completion_->full_body(huge ? std::string_view(state_.huge_text) : std::string_view());
  metrics_.generation_tokens.add(completion_->request().output_tokens);
  if (fault_) return send_full_with_fault(std::move(body));
  out_.clear();
  append_response_head(out_, 200, kJson, body.size(), mode_);
  out_ += body;
  write_then(&Session::finish_generation);
}

// Headers go out at once, as a real server's would; the first token follows at arrival + ttft.
void Session::send_stream_head() {
  out_.clear();
  append_stream_head(out_, mode_);
  if (fault_ && fault_->kind == Fault::slow_headers) {
    note_fault();
    const size_t head_size = out_.size();
    return write_slowly(std::move(out_), head_size, &Session::send_token);
  }
  write_then(fault_ && fault_->kind == Fault::stall_after_headers ? &Session::stall_then_send_token
                                                                  : &Session::send_token);
}

// Token i leaves at arrival + ttft + i*itl, each in its own write so the client sees one arrival
// per token.
void Session::send_token() {
  if (engine_id_) {
    if (!engine_has_token()) return;
  } else if (const auto deadline = arrival_ + state_.ttft + next_token_ * state_.itl; deadline > Clock::now()) {
    return at(deadline, &Session::send_token);
  }
  // Mid-stream faults strike at the middle token (the first when there is only one).
  std::string_view extra;
  if (fault_ && !fault_done_ && next_token_ == completion_->request().output_tokens / 2) {
    if (fault_->kind == Fault::huge_event) {
      note_fault();
      extra = state_.huge_text;
    } else if (stream_fault()) {
      return;
    }
  }
  const auto now = Clock::now();
  if (next_token_ == 0)
    metrics_.time_to_first_token.observe_ns((now - arrival_).count());
  else
    metrics_.inter_token_latency.observe_ns((now - last_token_sent_).count());
  last_token_sent_ = now;

  event_.clear();
  completion_->append_token_event(event_, next_token_, extra);
  out_.clear();
  append_stream_data(out_, event_, !mode_.http10);
  metrics_.generation_tokens.add(1);
  ++next_token_;
  write_then(next_token_ < completion_->request().output_tokens ? &Session::send_token
                                                                : &Session::send_stream_tail);
}

void Session::send_stream_tail() {
  const bool chunked = !mode_.http10;
  out_.clear();
  if (completion_->request().include_usage) {
    event_.clear();
    completion_->append_usage_event(event_);
    append_stream_data(out_, event_, chunked);
  } else if (completion_->has_root_extras()) {
    event_.clear();
    completion_->append_root_extras_event(event_);
    append_stream_data(out_, event_, chunked);
  }
  if (!completion_->done_event().empty()) append_stream_data(out_, completion_->done_event(), chunked);
  if (chunked) out_ += kLastChunk;
  write_then(&Session::finish_generation);
}

void Session::finish_generation() {
  leave_engine();
  metrics_.request_latency.observe_ns((Clock::now() - arrival_).count());
  metrics_.running.add(-1);
  const bool streamed = completion_->request().stream;
  completion_.reset();
  if (streamed && mode_.keep_alive && state_.config.close_after_stream) return drain_then_close();
  next_request();
}

void Session::write_then(Step next) {
  asio::async_write(socket_, asio::buffer(out_), [self = shared_from_this(), next](error_code ec, size_t) {
    if (ec) {
      self->abandon_response();  // the client went away mid-response
      return self->close();
    }
    (self.get()->*next)();
  });
}

void Session::next_request() {
  if (mode_.keep_alive) return read_header();
  close();
}

void Session::close() {
  leave_engine();
  error_code ignored;
  timer_.cancel();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  socket_.close(ignored);
}

void Session::log_access(int status) const {
  if (!state_.config.access_logs) return;
  const auto& request = parser_->get();
  std::fprintf(stderr, "%.*s %.*s %d\n", static_cast<int>(request.method_string().size()),
               request.method_string().data(), static_cast<int>(request.target().size()),
               request.target().data(), status);
}

}  // namespace aiperf::mock
