#include "phase_runner.h"

#include <algorithm>
#include <numeric>

#include "util/uuid.h"

namespace aiperf::timing {

PhaseRunner::PhaseRunner(PhaseConfig config, std::vector<ConversationInfo> conversations,
                         CreditSink& sink, std::mt19937_64 rng)
    : config_(config), conversations_(std::move(conversations)), sink_(sink), rng_(rng) {
  order_.resize(conversations_.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::shuffle(order_.begin(), order_.end(), rng_);
}

const ConversationInfo& PhaseRunner::next_conversation() {
  // AIPerf "shuffle": a permutation, reshuffled after every pass.
  if (order_pos_ == order_.size()) {
    std::shuffle(order_.begin(), order_.end(), rng_);
    order_pos_ = 0;
  }
  return conversations_[order_[order_pos_++]];
}

bool PhaseRunner::can_send_turn(int64_t now_ns) const {
  if (stats_.sending_complete) return false;
  if (config_.request_count && stats_.sent >= *config_.request_count) return false;
  if (config_.duration_ns && now_ns - start_ns_ >= *config_.duration_ns) return false;
  return true;
}

void PhaseRunner::start(int64_t now_ns, int64_t now_wall_ns) {
  start_ns_ = now_ns;
  if (conversations_.empty() || (config_.request_count && *config_.request_count == 0)) {
    stop_sending();
    return;
  }
  if (!config_.rate_mode) fill_slots(now_ns, now_wall_ns);
}

void PhaseRunner::fill_slots(int64_t now_ns, int64_t now_wall_ns) {
  while (config_.concurrency && sessions_.size() < *config_.concurrency) {
    if (!start_session(now_ns, now_wall_ns, 0)) break;
  }
}

bool PhaseRunner::start_session(int64_t now_ns, int64_t now_wall_ns, int64_t intended_wall_ns) {
  if (!can_send_turn(now_ns)) {
    if (!stats_.sending_complete) stop_sending();
    return false;
  }
  std::string worker = sink_.pick_worker();
  if (worker.empty()) return false;  // retried on_worker_available
  const ConversationInfo& conv = next_conversation();
  const uint64_t key = next_session_key_++;
  Session& s = sessions_[key];
  s.conversation_id = conv.id;
  s.correlation_id = util::uuid4(rng_);
  s.num_turns = conv.turns;
  s.worker_id = std::move(worker);
  // A session's turns all go to the URL its first turn used (AIPerf §3.11).
  s.url_index = static_cast<uint32_t>(sessions_started_++ % std::max(1u, config_.url_count));
  issue(key, now_wall_ns, intended_wall_ns);
  return true;
}

void PhaseRunner::issue(uint64_t key, int64_t now_wall_ns, int64_t intended_wall_ns) {
  Session& s = sessions_.at(key);
  proto::Credit credit;
  credit.set_id(stats_.sent);
  credit.set_phase(config_.phase);
  credit.set_conversation_id(s.conversation_id);
  credit.set_x_correlation_id(s.correlation_id);
  credit.set_turn_index(s.next_turn);
  credit.set_num_turns(s.num_turns);
  credit.set_issued_at_wall_ns(now_wall_ns);
  credit.set_intended_send_wall_ns(intended_wall_ns);
  if (config_.url_count > 1) credit.set_url_index(s.url_index);
  in_flight_[credit.id()] = InFlight{key, s.worker_id};
  ++stats_.sent;
  ++s.next_turn;
  sink_.send(s.worker_id, credit);
  if (config_.request_count && stats_.sent >= *config_.request_count) stop_sending();
}

void PhaseRunner::on_arrival(int64_t now_ns, int64_t now_wall_ns, int64_t intended_wall_ns) {
  if (config_.concurrency && sessions_.size() >= *config_.concurrency) return;  // dropped
  start_session(now_ns, now_wall_ns, intended_wall_ns);
}

void PhaseRunner::end_session(uint64_t key) { sessions_.erase(key); }

void PhaseRunner::on_return(const proto::CreditReturn& ret, int64_t now_ns, int64_t now_wall_ns) {
  auto it = in_flight_.find(ret.credit().id());
  if (it == in_flight_.end() || ret.credit().phase() != config_.phase) return;  // stale or duplicate
  const uint64_t key = it->second.session;
  in_flight_.erase(it);
  ++stats_.completed;
  if (ret.cancelled()) ++stats_.cancelled;
  if (ret.has_error()) ++stats_.errors;

  auto sit = sessions_.find(key);
  if (sit != sessions_.end()) {
    Session& s = sit->second;
    // An error on turn k does not end the session (AIPerf): turn k+1 is still sent.
    if (s.next_turn < s.num_turns && can_send_turn(now_ns)) {
      issue(key, now_wall_ns, 0);
    } else {
      end_session(key);
    }
  }
  if (!config_.rate_mode) fill_slots(now_ns, now_wall_ns);
  update_completion();
}

void PhaseRunner::on_worker_available(int64_t now_ns, int64_t now_wall_ns) {
  if (!config_.rate_mode) fill_slots(now_ns, now_wall_ns);
}

void PhaseRunner::stop_sending() {
  stats_.sending_complete = true;
  // Sessions that will send no more turns release their slots now.
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    bool has_in_flight = std::any_of(in_flight_.begin(), in_flight_.end(),
                                     [&](const auto& f) { return f.second.session == it->first; });
    it = has_in_flight ? std::next(it) : sessions_.erase(it);
  }
  update_completion();
}

void PhaseRunner::cancel_in_flight() {
  if (!stats_.sending_complete) stop_sending();
  stats_.timeout_triggered = true;
  std::unordered_map<std::string, std::vector<uint64_t>> by_worker;
  for (const auto& [id, f] : in_flight_) by_worker[f.worker_id].push_back(id);
  for (auto& [worker, ids] : by_worker) sink_.cancel(worker, ids);
}

void PhaseRunner::force_complete() {
  stats_.cancelled += in_flight_.size();
  stats_.completed += in_flight_.size();
  in_flight_.clear();
  sessions_.clear();
  update_completion();
}

void PhaseRunner::update_completion() {
  if (stats_.sending_complete && in_flight_.empty()) stats_.complete = true;
}

}  // namespace aiperf::timing
