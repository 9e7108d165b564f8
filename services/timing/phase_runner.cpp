#include "phase_runner.h"

#include <algorithm>
#include <cmath>

#include "config/agentic_replay_config.h"
#include "shiftable_timers.h"
#include "user_centric_plan.h"
#include "util/uuid.h"

namespace aiperf::timing {
namespace {
constexpr double kNsPerMs = 1e6;

double turn_value(const std::vector<double>& v, uint32_t turn) {
  return turn < v.size() ? v[turn] : std::nan("");
}
}  // namespace

PhaseRunner::PhaseRunner(PhaseConfig config, std::vector<ConversationInfo> conversations, CreditSink& sink,
                         std::mt19937_64 rng)
    : config_(config), conversations_(std::move(conversations)), sink_(sink), rng_(rng) {
  // Sessions are sampled from the roots only: branch targets run when a parent spawns them.
  for (size_t i = 0; i < conversations_.size(); ++i)
    if (!conversations_[i].branch_child) order_.push_back(i);
  if (config_.sampling == Sampling::kShuffle) std::shuffle(order_.begin(), order_.end(), rng_);
  if (config_.agentic) {
    timers_ = std::make_unique<ShiftableTimers>(sink_);
    // The lanes drew their traces from the sampling order; recycling goes on from there.
    for (uint64_t i = 0; i < config_.sampler_skip && !order_.empty(); ++i) next_conversation();
  }
}

PhaseRunner::~PhaseRunner() = default;

void PhaseRunner::defer(int64_t at_ns, std::function<void(int64_t)> fn) {
  if (timers_) return timers_->call_at(at_ns, std::move(fn));
  sink_.call_at(at_ns, [fn = std::move(fn), at_ns] { fn(at_ns); });
}

const ConversationInfo& PhaseRunner::next_conversation() {
  if (config_.sampling == Sampling::kRandom) {  // with replacement
    return conversations_[order_[std::uniform_int_distribution<size_t>(0, order_.size() - 1)(rng_)]];
  }
  if (order_pos_ == order_.size()) {  // sequential wraps; shuffle reshuffles every pass
    if (config_.sampling == Sampling::kShuffle) std::shuffle(order_.begin(), order_.end(), rng_);
    order_pos_ = 0;
  }
  return conversations_[order_[order_pos_++]];
}

bool PhaseRunner::can_send_turn() const {
  if (stats_.sending_complete) return false;
  if (config_.request_count && stats_.sent >= *config_.request_count) return false;
  if (config_.duration_ns && sink_.now_ns() - start_ns_ >= *config_.duration_ns) return false;
  return true;
}

bool PhaseRunner::can_start_session() const {
  return can_send_turn() && (!config_.session_count || sessions_started_ < *config_.session_count);
}

// Standby sessions wait on workers for a slot; they do not hold one.
bool PhaseRunner::slot_free() const {
  return !config_.concurrency ||
         sessions_.size() - standby_sessions_ - child_sessions_ + replay_pending_ < *config_.concurrency;
}

bool PhaseRunner::prefill_free() const {
  return !config_.prefill_concurrency || awaiting_first_token_ < *config_.prefill_concurrency;
}

void PhaseRunner::start() {
  start_ns_ = sink_.now_ns();
  start_wall_ns_ = sink_.wall_ns();
  if (order_.empty() || (config_.request_count && *config_.request_count == 0)) {
    stop_sending();
    return;
  }
  if (config_.agentic) {
    schedule_replay();
    enforce_idle_cap(false);
  } else if (config_.fixed_schedule) {
    schedule_trace();
  } else if (config_.num_users) {
    start_users();
  } else if (!config_.rate_mode) {
    fill_slots();
  }
  update_completion();
}

void PhaseRunner::start_users() {
  double turns = 0;
  for (const auto& c : conversations_) turns += c.turns;
  const auto session_turns = static_cast<uint32_t>(std::llround(turns / conversations_.size()));
  const double rate = config_.user_rate;
  turn_gap_ns_ = std::llround(*config_.num_users * 1e9 / rate);
  const std::vector<InitialUser> users = plan_initial_users(*config_.num_users, session_turns);
  next_user_id_ = users.back().user_id + 1;
  for (const InitialUser& u : users) schedule_user(schedule_origin_ns() + std::llround(u.order * 1e9 / rate), u.user_id, u.max_turns);
}

void PhaseRunner::schedule_user(int64_t at, uint64_t user_id, uint32_t max_turns) {
  ++trace_pending_;
  sink_.call_at(at, [this, at, user_id, max_turns] {
    --trace_pending_;
    if (!can_start_session()) {
      update_completion();
      return;
    }
    const ConversationInfo& conv = next_conversation();
    const uint32_t turns = max_turns ? std::min(max_turns, conv.turns) : conv.turns;
    const uint64_t id = user_id ? user_id : next_user_id_++;
    // The replacement joins when this user's turns would be over: an absolute schedule that
    // keeps U users active whatever the response times are.
    schedule_user(at + turns * turn_gap_ns_, 0, 0);
    PendingStart start{&conv, start_wall_ns_ + (at - start_ns_), std::to_string(id), turns, at};
    if (!backlog_.empty() || !slot_free() || !start_session(start)) backlog_.push_back(std::move(start));
    update_completion();
  });
}

void PhaseRunner::schedule_trace() {
  const int64_t start_wall = start_wall_ns_;
  for (const ConversationInfo& conv : conversations_) {
    if (conv.branch_child) continue;
    const double ts = turn_value(conv.timestamp_ms, 0);
    const double offset_ms = std::isnan(ts) ? 0 : ts - config_.schedule_zero_ms;
    const int64_t at = schedule_origin_ns() + static_cast<int64_t>(std::llround(offset_ms * kNsPerMs));
    const int64_t intended_wall = start_wall + (at - start_ns_);
    ++trace_pending_;
    sink_.call_at(at, [this, conv_ptr = &conv, intended_wall] {
      --trace_pending_;
      if (stats_.sending_complete) return;
      // A trace entry waits for a slot instead of being dropped: every entry is sent once.
      PendingStart start{conv_ptr, intended_wall};
      if (!backlog_.empty() || !slot_free() || !start_session(start)) backlog_.push_back(std::move(start));
      update_completion();
    });
  }
}

void PhaseRunner::fill_slots() {
  while (!backlog_.empty() && slot_free() && can_start_session()) {
    PendingStart& start = backlog_.front();
    start.intended_wall_ns = 0;  // late by design: the wait for a slot is not schedule lag
    if (!start_session(start)) break;
    backlog_.pop_front();
  }
  if (config_.rate_mode || config_.fixed_schedule || config_.num_users) return;
  if (config_.agentic && !config_.recycle) return;  // agentic warmup: its starts only
  // A slot freed without a standby taking it (its worker had none left): a standby waiting
  // elsewhere takes it first, so none waits for ever on a worker with no session to end.
  // Past the deadline none starts (they are being withdrawn); under a request count every one
  // must (they were counted).
  while (slot_free() && standby_sessions_ > 0 && (can_send_turn() || standbys_counted_) && promote_standby()) {
  }
  while (slot_free() && can_start_session() && ready_.empty()) {
    if (!start_session(PendingStart{nullptr})) break;
  }
  // Every slot busy: keep the workers' standby credits topped up.
  while (!slot_free() && standby_sessions_ < config_.standby && can_start_session()) {
    PendingStart standby{nullptr};
    standby.standby = true;
    if (!start_session(standby)) break;
  }
}

// A standby waits on its worker for one of that worker's sessions to end: it goes where the
// most running sessions share the fewest standbys (never to a worker running none).
std::string PhaseRunner::pick_standby_worker() const {
  const std::string* best = nullptr;
  int64_t best_margin = 0;
  for (const auto& [worker, slots] : by_worker_) {
    const int64_t margin = static_cast<int64_t>(slots.running) - static_cast<int64_t>(slots.standby.size());
    if (slots.running > 0 && (!best || margin > best_margin)) {
      best = &worker;
      best_margin = margin;
    }
  }
  return best ? *best : std::string();
}

bool PhaseRunner::start_session(const PendingStart& start) {
  if (!can_start_session()) return false;
  std::string worker = start.standby ? pick_standby_worker() : sink_.pick_worker();
  if (worker.empty()) return false;  // retried on_worker_available
  const uint64_t key = next_session_key_++;
  Session& s = sessions_[key];
  s.conversation = start.conversation ? start.conversation : &next_conversation();
  s.correlation_id = start.correlation_id.empty() ? util::uuid4(rng_) : start.correlation_id;
  s.turns = start.turns ? start.turns : s.conversation->turns;
  s.next_turn = start.first_turn;
  s.next_send_ns = start.scheduled_ns;
  s.worker_id = std::move(worker);
  s.standby = start.standby;
  WorkerSlots& slots = by_worker_[s.worker_id];
  if (s.standby) {
    ++standby_sessions_;
    slots.standby.insert(key);
  } else {
    ++slots.running;
  }
  // A session's turns all go to the URL its first turn used (AIPerf §3.11).
  s.url_index = static_cast<uint32_t>(sessions_started_++ % std::max(1u, config_.url_count));
  for (const SpawnInfo& spawn : s.conversation->spawns)
    if (spawn.pre_session && !spawn_children(key, spawn)) return true;
  send_or_queue(key, start.intended_wall_ns);
  return true;
}

bool PhaseRunner::spawn_children(uint64_t parent_key, const SpawnInfo& spawn) {
  for (const size_t index : spawn.children) {
    if (!sessions_.count(parent_key)) return false;  // a child's send reached the request count
    if (!can_send_turn()) break;
    const Session& parent = sessions_.at(parent_key);
    const uint64_t key = next_session_key_++;
    Session& child = sessions_[key];
    child.conversation = &conversations_.at(index);
    child.correlation_id = util::uuid4(rng_);
    child.turns = child.conversation->turns;
    child.worker_id = parent.worker_id;  // AIPerf co-locates a spawn with its parent
    child.url_index = parent.url_index;
    child.child = true;
    if (spawn.fork) {
      child.fork_parent = parent.correlation_id;
      child.fork_parent_turn = spawn.after_turn;
    }
    ++child_sessions_;
    if (spawn.join_turn) {
      child.parent = parent_key;
      child.join_turn = *spawn.join_turn;
      ++sessions_.at(parent_key).joins[*spawn.join_turn];
    }
    for (const SpawnInfo& nested : child.conversation->spawns)
      if (nested.pre_session && !spawn_children(key, nested)) break;
    if (sessions_.count(key)) schedule_turn(key);
  }
  return sessions_.count(parent_key) > 0;
}

void PhaseRunner::child_ended(uint64_t parent_key, uint32_t join_turn) {
  auto p = sessions_.find(parent_key);
  if (p == sessions_.end()) return;
  auto j = p->second.joins.find(join_turn);
  if (j == p->second.joins.end() || --j->second > 0) return;
  p->second.joins.erase(j);
  if (!p->second.waiting_join || p->second.next_turn != join_turn) return;
  p->second.waiting_join = false;
  // Deferred: a child ends inside loops over the sessions (stop_sending, a lost worker).
  sink_.call_at(sink_.now_ns(), [this, parent_key] {
    if (!sessions_.count(parent_key)) return;
    if (can_send_turn()) {
      schedule_turn(parent_key);
    } else {
      end_session(parent_key);
      fill_slots();
    }
    update_completion();
  });
}

void PhaseRunner::send_or_queue(uint64_t key, int64_t intended_wall_ns) {
  if (ready_.empty() && prefill_free()) {
    issue(key, intended_wall_ns);
  } else {
    ready_.emplace_back(key, intended_wall_ns);
  }
}

void PhaseRunner::issue(uint64_t key, int64_t intended_wall_ns) {
  Session& s = sessions_.at(key);
  proto::Credit credit;
  credit.set_id(next_credit_id_++);
  credit.set_phase(config_.phase);
  credit.set_conversation_id(s.conversation->id);
  credit.set_x_correlation_id(s.correlation_id);
  credit.set_turn_index(s.next_turn);
  credit.set_num_turns(s.turns);
  credit.set_issued_at_wall_ns(sink_.wall_ns());
  credit.set_intended_send_wall_ns(intended_wall_ns);
  if (config_.url_count > 1) credit.set_url_index(s.url_index);
  if (config_.max_tokens_override) credit.set_max_tokens_override(*config_.max_tokens_override);
  if (s.standby) credit.set_standby(true);
  if (s.next_turn == 0 && !s.fork_parent.empty()) {
    credit.set_fork_parent(s.fork_parent);
    credit.set_fork_parent_turn(s.fork_parent_turn);
  }
  uint32_t fork_children = 0;  // the worker keeps this turn's context for them
  for (const SpawnInfo& spawn : s.conversation->spawns)
    if (spawn.fork && spawn.after_turn == s.next_turn) fork_children += static_cast<uint32_t>(spawn.children.size());
  if (fork_children) credit.set_fork_children(fork_children);
  if (config_.cancellation_rate > 0 &&
      std::uniform_real_distribution<double>(0, 100)(rng_) < config_.cancellation_rate) {
    credit.set_cancel_after_ns(config_.cancellation_delay_ns);
  }
  const bool prefill = config_.prefill_concurrency.has_value();
  in_flight_[credit.id()] = InFlight{key, s.worker_id, prefill};
  s.credit_id = credit.id();
  if (prefill) ++awaiting_first_token_;
  ++stats_.sent;
  ++s.next_turn;
  s.turn_in_flight = true;
  sink_.send(s.worker_id, credit);
  if (config_.request_count && stats_.sent >= *config_.request_count) stop_sending();
}

// One credit per arrival (AIPerf §3.5): a session's next turn first, else a new session.
void PhaseRunner::on_arrival(int64_t intended_wall_ns) {
  while (!continuations_.empty()) {
    const uint64_t key = continuations_.front();
    continuations_.pop_front();
    if (!sessions_.count(key)) continue;  // ended by stop_sending meanwhile
    send_or_queue(key, intended_wall_ns);
    update_completion();
    return;
  }
  if (!slot_free()) return;  // dropped, as in AIPerf: the effective rate falls below target
  start_session(PendingStart{nullptr, intended_wall_ns});
  update_completion();
}

// A session's next turn is due: sent now, or in rate mode queued for the next arrival.
void PhaseRunner::turn_ready(uint64_t key, int64_t intended_wall_ns) {
  // A spawned child's turns go at once, not on the arrival process (AIPerf's child bypass).
  if (config_.rate_mode && !sessions_.at(key).child) {
    continuations_.push_back(key);
  } else {
    send_or_queue(key, intended_wall_ns);
  }
}

void PhaseRunner::on_standby_started(uint64_t credit_id) {
  auto it = in_flight_.find(credit_id);
  if (it == in_flight_.end()) return;
  auto s = sessions_.find(it->second.session);
  if (s == sessions_.end() || !s->second.standby) return;
  s->second.standby = false;  // it took the slot of the session that ended on its worker
  --standby_sessions_;
  WorkerSlots& slots = by_worker_[s->second.worker_id];
  slots.standby.erase(it->second.session);
  ++slots.running;
}

// The newest standby of the worker running the fewest sessions takes a free slot: the timing
// service tells that worker to start it now. False when no worker holds one.
bool PhaseRunner::promote_standby() {
  WorkerSlots* best = nullptr;
  const std::string* worker = nullptr;
  for (auto& [id, slots] : by_worker_) {
    if (!slots.standby.empty() && (!best || slots.running < best->running)) {
      best = &slots;
      worker = &id;
    }
  }
  if (!best) return false;
  const uint64_t key = *best->standby.rbegin();
  best->standby.erase(key);
  ++best->running;
  --standby_sessions_;
  Session& s = sessions_.at(key);
  s.standby = false;
  sink_.promote(*worker, s.credit_id);
  return true;
}

void PhaseRunner::on_return(const proto::CreditReturn& ret) {
  auto it = in_flight_.find(ret.credit_id());
  if (it == in_flight_.end() || ret.phase() != config_.phase) return;  // stale or duplicate
  const uint64_t key = it->second.session;
  if (ret.revoked()) {  // a standby withdrawn unsent: as if never issued
    in_flight_.erase(it);
    --stats_.sent;
    --sessions_started_;
    end_session(key);
    update_completion();
    return;
  }
  on_standby_started(ret.credit_id());  // its start notice would have come first; be safe
  if (it->second.awaiting_first_token) --awaiting_first_token_;
  in_flight_.erase(it);
  ++stats_.completed;
  if (ret.cancelled()) ++stats_.cancelled;
  if (ret.has_error()) ++stats_.errors;
  if (auto s = sessions_.find(key); s != sessions_.end()) {
    s->second.turn_in_flight = false;
    // Agentic replay: past the model's context, every later turn (a longer prompt) would fail
    // too; the lane moves on to a fresh session instead.
    if (!config_.overflow_substrings.empty() && ret.has_error() && s->second.next_turn < s->second.turns &&
        config::is_context_overflow(ret.error(), config_.overflow_substrings)) {
      ++stats_.context_overflows;
      end_session(key);
    } else {
      next_turn_after_return(key);
    }
  }
  drain_ready();
  fill_slots();
  update_completion();
  enforce_idle_cap(true);
}

// An error on turn k does not end the session (AIPerf): turn k+1 is still sent, after its
// own timestamp (trace) or think time if it has one.
void PhaseRunner::next_turn_after_return(uint64_t key) {
  const uint32_t returned = sessions_.at(key).next_turn - 1;
  for (const SpawnInfo& spawn : sessions_.at(key).conversation->spawns)
    if (!spawn.pre_session && spawn.after_turn == returned && !spawn_children(key, spawn)) return;
  Session& s = sessions_.at(key);
  if (s.next_turn >= s.turns || !can_send_turn()) {
    end_session(key);
    return;
  }
  if (s.joins.count(s.next_turn)) {  // children still running: child_ended sends it
    s.waiting_join = true;
    return;
  }
  schedule_turn(key);
}

void PhaseRunner::schedule_turn(uint64_t key) {
  Session& s = sessions_.at(key);
  const int64_t now = sink_.now_ns();
  int64_t at = now;
  const double ts = turn_value(s.conversation->timestamp_ms, s.next_turn);
  const double delay = turn_value(s.conversation->delay_ms, s.next_turn);
  if (config_.num_users) {
    // turn_gap after the previous turn's schedule; a late answer moves the schedule, never
    // a catch-up burst.
    at = std::max(now, s.next_send_ns + turn_gap_ns_);
    s.next_send_ns = at;
  } else if (config_.fixed_schedule && !std::isnan(ts)) {
    at = schedule_origin_ns() + static_cast<int64_t>(std::llround((ts - config_.schedule_zero_ms) * kNsPerMs));
  } else if (!std::isnan(delay) && delay > 0) {
    at = now + static_cast<int64_t>(std::llround(delay * kNsPerMs));
  }
  if (at <= now) {
    turn_ready(key, 0);
    return;
  }
  // The session keeps its slot while it thinks. (The idle cap may bring the deadline forward:
  // the intended time follows it.)
  const int64_t wall_offset = sink_.wall_ns() - now;
  defer(at, [this, key, wall_offset](int64_t due) {
    if (!sessions_.count(key)) return;  // ended by stop_sending meanwhile
    if (can_send_turn()) {
      turn_ready(key, due + wall_offset);
    } else {
      end_session(key);
      fill_slots();
    }
    update_completion();
    enforce_idle_cap(false);
  });
}

void PhaseRunner::schedule_replay() {
  for (const ReplayStart& r : config_.replay_starts) {
    if (r.conversation >= conversations_.size()) continue;
    ++replay_pending_;
    defer(schedule_origin_ns() + r.offset_ns, [this, r](int64_t due) {
      --replay_pending_;
      if (!stats_.sending_complete && can_start_session()) {
        PendingStart start{&conversations_[r.conversation], wall_at(due), r.correlation_id, r.end_turn, due};
        start.first_turn = r.first_turn;
        if (!backlog_.empty() || !start_session(start)) backlog_.push_back(std::move(start));
      }
      update_completion();
      enforce_idle_cap(false);
    });
  }
}

// AIPerf's enforce_system_idle_cap: the idle interval starts at the return that left nothing in
// flight (or when first seen idle); the pending timers are brought within the rest of the cap.
void PhaseRunner::enforce_idle_cap(bool after_return) {
  if (!timers_ || !config_.system_idle_cap_ns) return;
  if (!in_flight_.empty() || !ready_.empty()) {
    idle_since_ns_.reset();
    return;
  }
  const int64_t now = sink_.now_ns();
  if (after_return || !idle_since_ns_) idle_since_ns_ = now;
  const int64_t budget = std::max<int64_t>(0, *config_.system_idle_cap_ns - (now - *idle_since_ns_));
  if (const int64_t shifted = timers_->cap_pending_delay(budget); shifted > 0) {
    ++stats_.idle_jumps;
    stats_.idle_skipped_ns += shifted;
  }
}

void PhaseRunner::drain_ready() {
  while (!ready_.empty() && prefill_free()) {
    auto [key, intended] = ready_.front();
    ready_.pop_front();
    if (!sessions_.count(key)) continue;
    if (can_send_turn()) issue(key, intended);
    else end_session(key);
  }
}

void PhaseRunner::on_first_token(uint64_t credit_id) {
  auto it = in_flight_.find(credit_id);
  if (it == in_flight_.end() || !it->second.awaiting_first_token) return;
  it->second.awaiting_first_token = false;
  --awaiting_first_token_;
  drain_ready();
  fill_slots();
}

void PhaseRunner::on_worker_available() {
  // A worker that joins mid-phase would get no load while the others refill their own slots:
  // from here on every freed slot goes through the timing service again, which balances.
  if (config_.standby && !standbys_counted_) {
    config_.standby = 0;
    revoke_standbys();
  }
  fill_slots();
  update_completion();
}

void PhaseRunner::on_worker_lost(const std::string& worker_id) {
  std::vector<uint64_t> held;
  for (const auto& [id, f] : in_flight_)
    if (f.worker_id == worker_id) held.push_back(id);
  for (uint64_t id : held) {
    auto it = in_flight_.find(id);
    const uint64_t key = it->second.session;
    auto s = sessions_.find(key);
    if (it->second.awaiting_first_token) --awaiting_first_token_;
    in_flight_.erase(it);
    if (s != sessions_.end() && s->second.standby && !standbys_counted_) {
      --stats_.sent;  // never sent: as if never issued
      --sessions_started_;
    } else {
      ++stats_.completed;
      ++stats_.errors;
      ++stats_.lost;
    }
  }
  // Its sessions end, those between turns too (their next turn would go to the same worker).
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    const uint64_t key = it->first;
    const bool there = it->second.worker_id == worker_id;
    ++it;
    if (there) end_session(key);
  }
  by_worker_.erase(worker_id);
  drain_ready();
  fill_slots();
  update_completion();
}

void PhaseRunner::set_concurrency(uint32_t limit) {
  config_.concurrency = limit;
  fill_slots();
}

void PhaseRunner::set_prefill_concurrency(uint32_t limit) {
  config_.prefill_concurrency = limit;
  drain_ready();
  fill_slots();
}

void PhaseRunner::end_session(uint64_t key) {
  auto s = sessions_.find(key);
  if (s == sessions_.end()) return;
  if (s->second.child) {  // held no slot
    const std::optional<uint64_t> parent = s->second.parent;
    const uint32_t join_turn = s->second.join_turn;
    --child_sessions_;
    sessions_.erase(s);
    if (parent) child_ended(*parent, join_turn);
    return;
  }
  WorkerSlots& slots = by_worker_[s->second.worker_id];
  if (s->second.standby) {
    --standby_sessions_;
    slots.standby.erase(key);
  } else {
    --slots.running;
  }
  sessions_.erase(s);
}

void PhaseRunner::revoke_standbys() {
  if (standby_sessions_ == 0) return;
  std::unordered_map<std::string, std::vector<uint64_t>> by_worker;
  for (const auto& [id, f] : in_flight_) {
    auto s = sessions_.find(f.session);
    if (s != sessions_.end() && s->second.standby) by_worker[f.worker_id].push_back(id);
  }
  for (auto& [worker, ids] : by_worker) sink_.revoke(worker, ids);
}

void PhaseRunner::stop_sending() {
  // Standby credits count as sent; only the request count makes that final.
  standbys_counted_ = config_.request_count && stats_.sent >= *config_.request_count;
  if (!standbys_counted_) revoke_standbys();
  stats_.sending_complete = true;
  ready_.clear();
  backlog_.clear();
  continuations_.clear();
  // Sessions that will send no more turns release their slots now.
  for (auto it = sessions_.begin(); it != sessions_.end();) {
    const uint64_t key = it->first;
    ++it;
    if (!sessions_.at(key).turn_in_flight) end_session(key);
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
  const uint64_t settled = in_flight_.size() - standby_sessions_;  // standbys were never sent
  stats_.sent -= standby_sessions_;
  stats_.cancelled += settled;
  stats_.completed += settled;
  standby_sessions_ = 0;
  in_flight_.clear();
  sessions_.clear();
  child_sessions_ = 0;
  by_worker_.clear();
  awaiting_first_token_ = 0;
  update_completion();
}

void PhaseRunner::update_completion() {
  if (!stats_.sending_complete && config_.duration_ns && sink_.now_ns() - start_ns_ >= *config_.duration_ns) {
    stop_sending();  // calls back here with sending_complete set
    return;
  }
  if (!stats_.sending_complete) {
    // Sources of new sessions exhausted and every started session done: nothing left to send.
    const bool trace_done = (config_.fixed_schedule || (config_.agentic && !config_.recycle)) && trace_pending_ == 0 &&
                            replay_pending_ == 0 && backlog_.empty();
    const bool sessions_done = config_.session_count && sessions_started_ >= *config_.session_count;
    if ((trace_done || sessions_done) && sessions_.empty() && ready_.empty()) stats_.sending_complete = true;
  }
  if (stats_.sending_complete && in_flight_.empty()) stats_.complete = true;
}

}  // namespace aiperf::timing
