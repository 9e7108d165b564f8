// Session's side of the engine model (--engine-slots, engine_model.h): the request becomes a
// sequence in the shared engine, and its tokens leave as the engine emits them instead of on the
// fixed --ttft/--itl schedule.
#include <boost/asio/post.hpp>

#include "session.h"

namespace aiperf::mock {

bool Session::enter_engine(const GenerationRequest& request) {
  // The driver calls this on its own thread: the event is posted to this session's io thread.
  // The listener keeps the session alive while it waits for the engine (no other operation of
  // its own is pending then); the driver drops it when the sequence finishes or is cancelled.
  auto listener = [self = shared_from_this(), executor = socket_.get_executor()](const EngineEvent& event) {
    boost::asio::post(executor, [self, event] { self->on_engine_event(event); });
  };
  const auto id = state_.engine->submit(request.prompt_tokens, request.output_tokens, std::move(listener));
  if (!id) {
    respond(429, "application/json",
            error_body("engine queue full (--engine-max-queue)", "rate_limit_error", 429), "Retry-After: 1\r\n");
    return false;
  }
  engine_id_ = id;
  engine_tokens_ = 0;
  engine_done_ = false;
  engine_next_ = nullptr;
  return true;
}

void Session::on_engine_event(const EngineEvent& event) {
  if (!engine_id_ || event.id != *engine_id_) return;  // a sequence this session has left
  if (event.tokens == 1) {
    metrics_.engine_queue_time.observe_ns(event.queued_ns);
    metrics_.engine_prefill_time.observe_ns(event.prefill_ns);
  }
  engine_tokens_ = std::max(engine_tokens_, event.tokens);
  engine_done_ = engine_done_ || event.finished;
  if (!engine_next_) return;  // a write is in flight; its next step sees the new tokens
  const Step step = engine_next_;
  engine_next_ = nullptr;
  (this->*step)();
}

bool Session::engine_has_token() {
  if (next_token_ < engine_tokens_) return true;
  engine_next_ = &Session::send_token;
  return false;
}

void Session::send_full_when_done() {
  if (!engine_done_) {
    engine_next_ = &Session::send_full_when_done;
    return;
  }
  send_full_completion();
}

void Session::leave_engine() {
  if (!engine_id_) return;
  if (!engine_done_) state_.engine->cancel(*engine_id_);
  engine_id_.reset();
  engine_next_ = nullptr;
}

}  // namespace aiperf::mock
