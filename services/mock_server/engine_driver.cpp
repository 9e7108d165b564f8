#include "engine_driver.h"

namespace aiperf::mock {

EngineDriver::EngineDriver(const EngineSpec& spec) : spec_(spec), model_(spec), thread_([this] { run(); }) {}

EngineDriver::~EngineDriver() { stop(); }

void EngineDriver::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    listeners_.clear();
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<uint64_t> EngineDriver::submit(int prompt_tokens, int output_tokens, Listener listener) {
  std::optional<uint64_t> id;
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return std::nullopt;
    const int64_t now = now_ns();
    advance_locked(now);  // slots that free up by now are free for this request
    id = model_.submit(now, prompt_tokens, output_tokens);
    if (id) listeners_.emplace(*id, std::move(listener));
  }
  if (id) wake_.notify_all();  // its prefill may end before whatever the thread waits for
  return id;
}

void EngineDriver::cancel(uint64_t id) {
  {
    std::lock_guard lock(mutex_);
    if (listeners_.erase(id) == 0) return;  // finished or unknown
    const int64_t now = now_ns();
    advance_locked(now);
    model_.cancel(now, id);
  }
  wake_.notify_all();
}

EngineCounts EngineDriver::counts() const {
  std::lock_guard lock(mutex_);
  return model_.counts();
}

void EngineDriver::advance_locked(int64_t now) {
  for (const EngineEvent& event : model_.advance(now)) {
    const auto it = listeners_.find(event.id);
    if (it == listeners_.end()) continue;
    it->second(event);
    if (event.finished) listeners_.erase(it);
  }
}

void EngineDriver::run() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const std::optional<int64_t> next = model_.next_event_ns();
    if (!next) {
      wake_.wait(lock);
      continue;
    }
    const int64_t now = now_ns();
    if (*next > now) {
      wake_.wait_until(lock, epoch_ + std::chrono::nanoseconds(*next));
      continue;
    }
    advance_locked(now);
  }
}

}  // namespace aiperf::mock
