// Session's handling of ScriptedReply routes (scripted_apis.h): validation, error injection,
// then every piece written at its deadline.
#include "session.h"

namespace aiperf::mock {

void Session::handle_scripted_route() {
  const auto& request = parser_->get();
  const std::string_view body = request.body();
  const Pacing pacing{state_.ttft, state_.itl};
  switch (route_) {
    case Route::responses:
      return start_scripted(responses_reply(body, state_.pool, pacing,
                                            state_.next_response_id.fetch_add(1, std::memory_order_relaxed)));
    case Route::image_generations:
      return start_scripted(image_generation_reply(body, pacing));
    case Route::messages:
      return start_scripted(messages_reply(body, state_.pool, pacing,
                                           state_.next_response_id.fetch_add(1, std::memory_order_relaxed)));
    case Route::image_retrieval:
      return start_scripted(image_retrieval_reply(body, pacing));
    case Route::image_edits:
      return start_scripted(image_edit_reply(request[boost::beast::http::field::content_type], body, pacing));
    case Route::audio_transcriptions:
      return start_scripted(
          transcription_reply(request[boost::beast::http::field::content_type], body, state_.pool, pacing));
    case Route::solido_rag:
      return start_scripted(solido_rag_reply(body, state_.pool, pacing));
    case Route::triton_generate:
    case Route::triton_generate_stream:
      return start_scripted(triton_generate_reply(request.target(), body, route_ == Route::triton_generate_stream,
                                                  state_.pool, pacing));
    default:
      return respond_error(404, "no route", "not_found_error");
  }
}

void Session::start_scripted(ScriptedOrBad reply) {
  if (auto* bad = std::get_if<BadRequest>(&reply)) return respond_error(400, bad->message, "invalid_request_error");
  if (state_.errors.should_fail()) return respond_error(500, "injected error (--error-rate)", "server_error");
  script_.emplace(std::move(std::get<ScriptedReply>(reply)));
  script_next_ = 0;
  metrics_.count_request(route_, 200);
  metrics_.prompt_tokens.add(script_->prompt_tokens);
  metrics_.running.add(1);
  log_access(200);
  if (!script_->stream) {
    const TimedPiece& piece = script_->pieces.front();
    return at(arrival_ + piece.at, &Session::send_scripted_piece);
  }
  if (mode_.http10) mode_.keep_alive = false;  // the stream ends when the connection does
  out_.clear();
  append_stream_head(out_, mode_);
  write_then(&Session::send_scripted_piece);
}

// Each piece in its own write, so the client sees one arrival per event.
void Session::send_scripted_piece() {
  ScriptedReply& script = *script_;
  if (!script.stream) {
    const std::string& body = script.pieces.front().data;
    out_.clear();
    append_response_head(out_, 200, script.content_type, body.size(), mode_);
    out_ += body;
    metrics_.generation_tokens.add(script.output_tokens);
    return write_then(&Session::finish_scripted);
  }
  if (script_next_ == script.pieces.size()) {
    out_.clear();
    if (!mode_.http10) out_ += kLastChunk;
    metrics_.generation_tokens.add(script.output_tokens);
    return write_then(&Session::finish_scripted);
  }
  const TimedPiece& piece = script.pieces[script_next_];
  if (arrival_ + piece.at > Clock::now()) return at(arrival_ + piece.at, &Session::send_scripted_piece);
  out_.clear();
  append_stream_data(out_, piece.data, !mode_.http10);
  ++script_next_;
  write_then(&Session::send_scripted_piece);
}

void Session::finish_scripted() {
  metrics_.request_latency.observe_ns((Clock::now() - arrival_).count());
  metrics_.running.add(-1);
  script_.reset();
  next_request();
}

}  // namespace aiperf::mock
