#include "engine_model.h"

#include <algorithm>
#include <cmath>

namespace aiperf::mock {

std::string check_engine_spec(const EngineSpec& spec) {
  if (!spec.enabled()) return {};
  if (!(spec.prefill_tokens_per_s > 0) || !std::isfinite(spec.prefill_tokens_per_s))
    return "--engine-prefill-tokens-per-s must be a positive number";
  if (!(spec.step_ms >= 0) || !std::isfinite(spec.step_ms)) return "--engine-step-ms must be a number >= 0";
  if (!(spec.step_per_seq_ms >= 0) || !std::isfinite(spec.step_per_seq_ms))
    return "--engine-step-per-seq-ms must be a number >= 0";
  return {};
}

EngineModel::EngineModel(const EngineSpec& spec) : spec_(spec) {}

int64_t EngineModel::prefill_ns(int prompt_tokens) const {
  return std::llround(static_cast<double>(std::max(prompt_tokens, 0)) * 1e9 / spec_.prefill_tokens_per_s);
}

int64_t EngineModel::step_ns(size_t n) const {
  return std::llround((spec_.step_ms + spec_.step_per_seq_ms * static_cast<double>(n)) * 1e6);
}

std::optional<uint64_t> EngineModel::submit(int64_t now_ns, int prompt_tokens, int output_tokens) {
  now_ = std::max(now_, now_ns);
  const bool slot_free = prefilling_.size() + decoding_.size() < spec_.slots;
  if (!slot_free && spec_.max_queue && waiting_.size() >= *spec_.max_queue) return std::nullopt;
  Sequence s;
  s.id = next_id_++;
  s.prompt_tokens = prompt_tokens;
  s.output_tokens = std::max(output_tokens, 1);
  s.arrival = now_;
  waiting_.push_back(s);
  settle(now_);
  return s.id;
}

std::optional<int64_t> EngineModel::next_event_ns() const {
  std::optional<int64_t> next = step_end_;
  for (const Sequence& s : prefilling_)
    if (!next || s.prefill_end < *next) next = s.prefill_end;
  return next;
}

std::vector<EngineEvent> EngineModel::advance(int64_t now_ns) {
  std::vector<EngineEvent> events;
  for (auto t = next_event_ns(); t && *t <= now_ns; t = next_event_ns()) {
    now_ = std::max(now_, *t);
    process(now_, events);
  }
  now_ = std::max(now_, now_ns);
  return events;
}

void EngineModel::emit(Sequence& s, int64_t t, std::vector<EngineEvent>& events) {
  ++s.emitted;
  EngineEvent event{s.id, t, s.emitted, s.emitted >= s.output_tokens};
  if (s.emitted == 1) {
    event.queued_ns = s.admitted - s.arrival;
    event.prefill_ns = t - s.admitted;
  }
  events.push_back(event);
}

void EngineModel::process(int64_t t, std::vector<EngineEvent>& events) {
  // 1. The running step ends: one token to each sequence that was in it.
  if (step_end_ && *step_end_ <= t) {
    for (size_t i = 0; i < step_members_; ++i) emit(decoding_[i], t, events);
    step_end_.reset();
    step_members_ = 0;
    std::erase_if(decoding_, [](const Sequence& s) { return s.emitted >= s.output_tokens; });
  }
  // 2. Prefills that end now emit their first token and join the decode batch.
  for (auto it = prefilling_.begin(); it != prefilling_.end();) {
    if (it->prefill_end > t) {
      ++it;
      continue;
    }
    emit(*it, t, events);
    if (it->emitted < it->output_tokens) decoding_.push_back(*it);
    it = prefilling_.erase(it);
  }
  // 3 and 4.
  settle(t);
}

void EngineModel::settle(int64_t t) {
  while (!waiting_.empty() && prefilling_.size() + decoding_.size() < spec_.slots) {
    Sequence s = waiting_.front();
    waiting_.pop_front();
    s.admitted = t;
    s.prefill_end = t + prefill_ns(s.prompt_tokens);
    prefilling_.push_back(s);
  }
  if (!step_end_ && !decoding_.empty()) {
    step_members_ = decoding_.size();
    step_end_ = t + step_ns(step_members_);
  }
}

void EngineModel::cancel(int64_t now_ns, uint64_t id) {
  now_ = std::max(now_, now_ns);
  const auto same = [id](const Sequence& s) { return s.id == id; };
  if (auto it = std::find_if(waiting_.begin(), waiting_.end(), same); it != waiting_.end()) {
    waiting_.erase(it);
    return;
  }
  if (auto it = std::find_if(prefilling_.begin(), prefilling_.end(), same); it != prefilling_.end()) {
    prefilling_.erase(it);
  } else if (auto dt = std::find_if(decoding_.begin(), decoding_.end(), same); dt != decoding_.end()) {
    // A member of the running step: the step keeps its length, the sequence gets no token.
    if (static_cast<size_t>(dt - decoding_.begin()) < step_members_) --step_members_;
    decoding_.erase(dt);
  } else {
    return;
  }
  settle(now_);
}

}  // namespace aiperf::mock
