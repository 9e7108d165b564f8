#include "timing_service.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "agentic_replay.h"
#include "bus/socket.h"
#include "log/log.h"
#include "time/send_lead.h"

namespace aiperf::timing {
namespace {
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kCancelDrainNs = 10 * kSecond;  // AIPERF_TIMING_CANCEL_DRAIN_TIMEOUT
constexpr int64_t kProgressIntervalNs = kSecond;
constexpr int64_t kRateRampStepNs = 100'000'000;  // AIPERF_TIMING_RATE_RAMP_UPDATE_INTERVAL
constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Rate arrivals due within this window of the first one leave in the same message: at 10k
// req/s that is ten credits per message and per wake-up instead of one. Workers hold each
// credit until its own instant, so this only moves credits earlier (by at most the window).
constexpr int64_t kCreditBatchWindowNs = 1'000'000;
// Where nothing waits on a return (see Credits.return_within_ns), workers hold returns this
// long to send them together, which spares both sides a wake-up per request.
constexpr int64_t kReturnBatchNs = 1'000'000;
// Standby credits kept on the workers, at most: enough to cover the requests that finish while
// a batch of returns travels (kReturnBatchNs), few enough that a deadline withdraws little.
constexpr uint32_t kMaxStandby = 1024;

Sampling parse_sampling(const std::string& s) {
  if (s == "sequential") return Sampling::kSequential;
  if (s == "random") return Sampling::kRandom;
  return Sampling::kShuffle;
}

// Runner + pacing settings of one phase from its PhaseLoad.
PhasePlan make_plan(const config::PhaseLoad& load, std::mt19937_64& rng) {
  PhasePlan plan;
  plan.runner.concurrency = load.concurrency;
  plan.runner.prefill_concurrency = load.prefill_concurrency;
  plan.concurrency_ramp_s = load.concurrency_ramp_duration;
  plan.prefill_ramp_s = load.prefill_concurrency_ramp_duration;
  if (load.num_users && load.request_rate) {
    plan.runner.num_users = load.num_users;
    plan.runner.user_rate = *load.request_rate;
    plan.target_rate = *load.request_rate;
  } else if (load.request_rate) {
    const ArrivalPattern pattern = schedule_pattern(load.arrival_pattern);
    plan.runner.rate_mode = true;
    plan.target_rate = *load.request_rate;
    plan.rate_ramp_s = load.request_rate_ramp_duration;
    plan.rate_series = load.request_rate_series;
    // A rate ramp starts at 10% of the target per 1/T (AIPerf: target * 0.1 / T).
    const double start_rate = plan.rate_ramp_s ? plan.target_rate * std::min(1.0, 0.1 / *plan.rate_ramp_s)
                                               : plan.target_rate;
    plan.arrivals.emplace(pattern, start_rate, load.arrival_smoothness, std::mt19937_64(rng()));
  }
  return plan;
}

}  // namespace

TimingService::TimingService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      router_(bus::make_socket(zmq::socket_type::router), "timing credits") {
  router_.socket().set(zmq::sockopt::router_mandatory, 1);  // unknown worker: error, not a silent drop
  bus::bind(router_.socket(), this->endpoints().credit);
  reactor().add_socket(router_.socket(), [this] { on_credit_socket(); });
  subscribe(bus::topic::kDataset);
  subscribe(bus::topic::kLost);
}

std::vector<PhasePlan> TimingService::build_plans() const {
  const auto& l = config_->loadgen;
  const auto& in = config_->input;
  std::mt19937_64 rng(config_->input.random_seed ? *config_->input.random_seed + 2 : std::random_device{}());
  std::vector<PhasePlan> plans;
  if (l.agentic_replay.enabled) return build_agentic_plans(rng);

  if (l.warmup_request_count || l.warmup_duration || l.num_warmup_sessions) {
    PhasePlan warm = make_plan(l.warmup, rng);
    warm.runner.phase = proto::PHASE_WARMUP;
    warm.runner.request_count = l.warmup_request_count;
    warm.runner.session_count = l.num_warmup_sessions;
    if (l.warmup_duration) warm.runner.duration_ns = static_cast<int64_t>(*l.warmup_duration * kSecond);
    warm.grace_seconds = l.warmup_grace_period.value_or(kInfinity);
    warm.runner.sampling = parse_sampling(sampling_);
    plans.push_back(std::move(warm));
  }

  PhasePlan prof = make_plan(l.profiling, rng);
  prof.runner.request_count = l.request_count;
  prof.runner.session_count = l.conversation_num;
  if (l.benchmark_duration) prof.runner.duration_ns = static_cast<int64_t>(*l.benchmark_duration * kSecond);
  prof.grace_seconds = l.benchmark_grace_period;
  prof.runner.sampling = parse_sampling(sampling_);
  // Cancellation applies to the profiling phase only (AIPerf §3.8).
  prof.runner.cancellation_rate = l.request_cancellation_rate.value_or(0);
  prof.runner.cancellation_delay_ns = static_cast<int64_t>(l.request_cancellation_delay * kSecond);
  if (in.fixed_schedule) {
    prof.runner.fixed_schedule = true;
    prof.runner.rate_mode = false;
    prof.arrivals.reset();
    prof.runner.sampling = Sampling::kSequential;
    // Time zero: the first timestamp with auto offset, else the start offset, else 0.
    double zero = 0;
    if (in.fixed_schedule_auto_offset) {
      zero = kInfinity;
      for (const auto& c : conversations_)
        if (!c.timestamp_ms.empty() && !std::isnan(c.timestamp_ms[0])) zero = std::min(zero, c.timestamp_ms[0]);
      if (zero == kInfinity) zero = 0;
    } else if (in.fixed_schedule_start_offset) {
      zero = static_cast<double>(*in.fixed_schedule_start_offset);
    }
    prof.runner.schedule_zero_ms = zero;
  }
  plans.push_back(std::move(prof));
  for (auto& p : plans) {
    p.runner.url_count = static_cast<uint32_t>(config_->endpoint.urls.size());
    p.runner.schedule_lead_ns = kSendLeadNs;
  }
  return plans;
}

std::vector<PhasePlan> TimingService::build_agentic_plans(std::mt19937_64& rng) const {
  const auto& l = config_->loadgen;
  const auto& a = l.agentic_replay;
  TrajectoryOptions topts;
  topts.lanes = l.profiling.concurrency.value_or(1);
  topts.start_min_ratio = a.trajectory_start_min_ratio;
  topts.start_max_ratio = a.trajectory_start_max_ratio;
  topts.sampling = parse_sampling(sampling_);
  const TrajectorySet set = build_trajectories(conversations_, topts, rng);
  if (set.lanes.size() < topts.lanes)
    AIPERF_LOG(kWarning) << "Built " << set.lanes.size() << " trajectories for concurrency=" << topts.lanes
                         << ": the dataset could not supply enough usable traces. Effective load is capped at "
                         << set.lanes.size() << " lanes.";
  AgenticOptions aopts;
  aopts.burst_phase_starts = l.burst_phase_starts;
  aopts.trace_idle_gap_cap_s = config_->input.agentic_trace.trace_idle_gap_cap_seconds;
  AgenticPhases phases = plan_agentic_phases(set.lanes, aopts);
  AIPERF_LOG(kInfo) << "Agentic replay: " << set.lanes.size() << " trajectory lanes, " << phases.warmup.size()
                    << " warmup request(s)";
  std::optional<int64_t> idle_cap;
  if (a.system_idle_gap_cap_seconds)
    idle_cap = static_cast<int64_t>(std::llround(*a.system_idle_gap_cap_seconds * kSecond));

  std::vector<PhasePlan> plans;
  if (!phases.warmup.empty()) {
    PhasePlan warm;
    warm.runner.phase = proto::PHASE_WARMUP;
    warm.runner.agentic = true;
    warm.runner.request_count = phases.warmup.size();
    warm.runner.replay_starts = std::move(phases.warmup);
    warm.runner.system_idle_cap_ns = idle_cap;
    warm.runner.max_tokens_override = 1;  // priming: the context matters, not the answer
    warm.grace_seconds = a.warmup_grace_period.value_or(kInfinity);
    warm.grace_after_sending = true;
    plans.push_back(std::move(warm));
  }
  PhasePlan prof;
  prof.runner.concurrency = static_cast<uint32_t>(std::max<size_t>(1, set.lanes.size()));
  prof.runner.prefill_concurrency = l.profiling.prefill_concurrency;
  prof.runner.agentic = true;
  prof.runner.recycle = true;
  prof.runner.replay_starts = std::move(phases.profiling);
  prof.runner.sampler_skip = set.draws;
  prof.runner.system_idle_cap_ns = idle_cap;
  prof.runner.overflow_substrings = a.context_overflow_substrings;
  prof.runner.sampling = parse_sampling(sampling_);
  prof.runner.request_count = l.request_count;
  if (l.benchmark_duration) prof.runner.duration_ns = static_cast<int64_t>(*l.benchmark_duration * kSecond);
  prof.grace_seconds = l.benchmark_grace_period;
  plans.push_back(std::move(prof));
  for (auto& p : plans) {
    p.runner.url_count = static_cast<uint32_t>(config_->endpoint.urls.size());
    p.runner.schedule_lead_ns = kSendLeadNs;
  }
  return plans;
}

void TimingService::on_configure(const config::RunConfig& config) {
  config_ = config;
  if (config.endpoint.server_profiler) profiler_ = make_server_profiler(config);
  rng_.seed(config.input.random_seed ? *config.input.random_seed + 1 : std::random_device{}());
  if (!dataset_ready_) {
    configure_pending_ = true;
    defer_configure_response();
    return;
  }
  plans_ = build_plans();
}

void TimingService::on_bus(std::string_view topic, const proto::BusMessage& msg) {
  if (msg.has_service_lost()) {
    if (msg.service_lost().service_type() == "worker") worker_lost(msg.service_lost().service_id());
    return;
  }
  if (!msg.has_dataset_ready()) return;
  const auto& ready = msg.dataset_ready();
  conversations_.clear();
  for (int i = 0; i < ready.conversation_ids_size(); ++i) {
    ConversationInfo c;
    c.id = ready.conversation_ids(i);
    c.turns = i < ready.turn_counts_size() ? ready.turn_counts(i) : 1u;
    if (i < ready.timings_size()) {
      c.timestamp_ms.assign(ready.timings(i).timestamp_ms().begin(), ready.timings(i).timestamp_ms().end());
      c.delay_ms.assign(ready.timings(i).delay_ms().begin(), ready.timings(i).delay_ms().end());
    }
    conversations_.push_back(std::move(c));
  }
  // dag_jsonl branches: children named by conversation id.
  std::unordered_map<std::string, size_t> index;
  for (size_t i = 0; i < conversations_.size(); ++i) index.emplace(conversations_[i].id, i);
  for (int i = 0; i < ready.branches_size() && i < static_cast<int>(conversations_.size()); ++i) {
    ConversationInfo& c = conversations_[static_cast<size_t>(i)];
    c.branch_child = ready.branches(i).branch_child();
    for (const proto::SpawnBranch& b : ready.branches(i).spawns()) {
      SpawnInfo spawn;
      spawn.after_turn = b.after_turn();
      spawn.pre_session = b.pre_session();
      spawn.fork = b.fork();
      if (b.has_join_turn()) spawn.join_turn = b.join_turn();
      for (const std::string& child : b.children())
        if (auto it = index.find(child); it != index.end()) spawn.children.push_back(it->second);
      c.spawns.push_back(std::move(spawn));
    }
  }
  sampling_ = ready.sampling_strategy();
  dataset_ready_ = true;
  if (configure_pending_) {
    configure_pending_ = false;
    if (conversations_.empty()) return complete_configure(false, "dataset is empty");
    plans_ = build_plans();
    complete_configure(true);
  }
}

void TimingService::on_start() {
  if (!config_ || plans_.empty()) return fail("start before configure");
  start_phase(0);
}

void TimingService::call_at(int64_t at_ns, std::function<void()> fn) {
  phase_timers_.push_back(reactor().call_at(at_ns - kSendLeadNs, [this, fn = std::move(fn)] {
    fn();
    after_change();
  }));
}

void TimingService::start_phase(size_t index) {
  phase_index_ = index;
  // --server-profiler: started before the profiling phase's first credit (after warmup).
  if (plans_[index].runner.phase == proto::PHASE_PROFILING && profiler_) {
    if (std::string error = profiler_->start(); !error.empty()) return fail(error);
  }
  for (auto id : phase_timers_) reactor().cancel(id);
  phase_timers_.clear();
  reactor().cancel(arrival_timer_);
  sending_complete_published_ = false;
  // Credit ids restart per phase; anything left from a force-completed phase is forgotten.
  credit_worker_.clear();
  for (auto& [id, load] : worker_load_) load = 0;
  PhasePlan& plan = plans_[index];
  PhaseConfig runner_config = plan.runner;
  if (plan.concurrency_ramp_s && runner_config.concurrency) runner_config.concurrency = 1;
  if (plan.prefill_ramp_s && runner_config.prefill_concurrency) runner_config.prefill_concurrency = 1;
  // Spawned children hold no slot, so a session's end may free none: no standbys with branches.
  const bool single_turn = std::all_of(conversations_.begin(), conversations_.end(), [](const ConversationInfo& c) {
    return c.turns <= 1 && c.spawns.empty() && !c.branch_child;
  });
  // Standby credits where a session's end frees exactly one slot and nothing else decides
  // what goes next: workers refill their own slots, and returns may wait to travel together.
  const PhaseConfig& r = plan.runner;
  const bool standby = r.concurrency && !r.prefill_concurrency && !r.rate_mode && !r.fixed_schedule && !r.agentic &&
                       !r.num_users && !plan.concurrency_ramp_s && single_turn;
  if (standby) runner_config.standby = std::min(*r.concurrency, kMaxStandby);
  runner_ = std::make_unique<PhaseRunner>(runner_config, conversations_, *this, rng_);
  // Below one request per window a collection round finds at most one request: waking the
  // worker's reactor every window would cost more than it saves.
  const bool batches_pay = plan.target_rate * kReturnBatchNs >= 1e9;
  const bool rate_only = r.rate_mode && !r.concurrency && !r.prefill_concurrency && single_turn && batches_pay;
  return_within_ns_ = rate_only || standby ? kReturnBatchNs : 0;
  phase_start_ns_ = steady_now_ns();
  phase_start_wall_ns_ = wall_now_ns();
  publish_phase(proto::PHASE_EVENT_START);

  phase_timers_.push_back(reactor().call_every(kProgressIntervalNs, [this] { publish_phase(proto::PHASE_EVENT_PROGRESS); }));
  if (plan.runner.duration_ns) {
    const int64_t deadline = phase_start_ns_ + *plan.runner.duration_ns;
    phase_timers_.push_back(reactor().call_at(deadline, [this] {
      runner_->stop_sending();
      after_change();
    }));
    if (plan.grace_seconds < kInfinity) {
      const int64_t grace_end = deadline + static_cast<int64_t>(plan.grace_seconds * kSecond);
      phase_timers_.push_back(reactor().call_at(grace_end, [this] {
        if (runner_->stats().complete) return;
        AIPERF_LOG(kWarning) << "grace period expired: cancelling " << runner_->in_flight() << " in-flight requests";
        runner_->cancel_in_flight();
        phase_timers_.push_back(reactor().call_after(kCancelDrainNs, [this] {
          if (runner_->stats().complete) return;
          AIPERF_LOG(kWarning) << "cancelled requests did not all return; completing the phase without them";
          runner_->force_complete();
          after_change();
        }));
      }));
    }
  }
  runner_->start();
  start_ramps(plan);
  if (plan.arrivals) {
    // Like trace schedules, the first arrival is due no sooner than one send lead from now, so
    // it reaches its worker ahead of its instant instead of a lead late.
    plan.arrivals->start(phase_start_ns_ + kSendLeadNs);
    schedule_arrival();
  }
  after_change();
}

// Concurrency ramps: limit 1 at start, +1 at T*(v-1)/(target-1) for v = 2..target (§3.10).
// Rate ramp: linear from the start rate to the target, updated every 100 ms.
void TimingService::start_ramps(const PhasePlan& plan) {
  auto step_ramp = [this](std::optional<double> ramp_s, std::optional<uint32_t> target_limit,
                          void (PhaseRunner::*set)(uint32_t)) {
    if (!ramp_s || !target_limit || *target_limit <= 1) return;
    const uint32_t target = *target_limit;
    for (uint32_t v = 2; v <= target; ++v) {
      const int64_t at = phase_start_ns_ + static_cast<int64_t>(*ramp_s * kSecond * (v - 1) / (target - 1));
      phase_timers_.push_back(reactor().call_at(at, [this, v, set] {
        (runner_.get()->*set)(v);
        after_change();
      }));
    }
  };
  step_ramp(plan.concurrency_ramp_s, plan.runner.concurrency, &PhaseRunner::set_concurrency);
  step_ramp(plan.prefill_ramp_s, plan.runner.prefill_concurrency, &PhaseRunner::set_prefill_concurrency);
  if (plan.rate_ramp_s && plan.arrivals) {
    const double duration_ns = *plan.rate_ramp_s * kSecond;
    const double start_rate = plan.arrivals->rate();
    const double target = plan.target_rate;
    phase_timers_.push_back(reactor().call_every(kRateRampStepNs, [this, duration_ns, start_rate, target] {
      auto& plan = plans_[phase_index_];
      const double f = std::min(1.0, (steady_now_ns() - phase_start_ns_) / duration_ns);
      if (f >= 1 && !plan.rate_series.empty()) return;  // the series takes over at the ramp's end
      set_arrival_rate(start_rate + (target - start_rate) * f);
      after_change();
    }));
  }
  // Rate series (AIPerf's RateSeriesController): starts when the rate ramp ends, sets the
  // series' first rate at once, then the interpolated rate every 100 ms.
  if (!plan.rate_series.empty() && plan.arrivals) {
    const int64_t series_start = phase_start_ns_ + static_cast<int64_t>(plan.rate_ramp_s.value_or(0) * kSecond);
    phase_timers_.push_back(reactor().call_at(series_start, [this, series_start] {
      apply_rate_series(series_start);
      phase_timers_.push_back(reactor().call_every(kRateRampStepNs, [this, series_start] {
        apply_rate_series(series_start);
        after_change();
      }));
      after_change();
    }));
  }
}

void TimingService::apply_rate_series(int64_t series_start_ns) {
  const PhasePlan& plan = plans_[phase_index_];
  set_arrival_rate(rate_series_value(plan.rate_series, static_cast<double>(steady_now_ns() - series_start_ns) / kSecond));
}

void TimingService::set_arrival_rate(double rate) {
  PhasePlan& plan = plans_[phase_index_];
  if (!plan.arrivals || !runner_) return;
  const int64_t now = steady_now_ns();
  if (!arrival_timer_) return plan.arrivals->set_rate(rate);
  // Schedule time "now" is one send lead ahead: the earliest instant a credit can still make.
  const int64_t at = plan.arrivals->change_rate(rate, now + kSendLeadNs, pending_arrival_ns_);
  if (at == pending_arrival_ns_) return;
  reactor().cancel(arrival_timer_);
  arm_arrival(at);
}

void TimingService::arm_arrival(int64_t at) {
  pending_arrival_ns_ = at;
  // One pending arrival timer at a time: its id is replaced, not accumulated.
  arrival_timer_ = reactor().call_at(at - kSendLeadNs, [this, at] { release_arrivals(at); });
}

void TimingService::schedule_arrival() {
  arm_arrival(plans_[phase_index_].arrivals->next(steady_now_ns() + kSendLeadNs));
}

// Issues the arrival intended at `at` and every later one intended within the batch window,
// then waits for the next. Arrivals intended after the duration deadline are not issued.
void TimingService::release_arrivals(int64_t at) {
  PhasePlan& plan = plans_[phase_index_];
  const int64_t horizon = steady_now_ns() + kSendLeadNs + kCreditBatchWindowNs;
  const int64_t end = plan.runner.duration_ns ? phase_start_ns_ + *plan.runner.duration_ns
                                              : std::numeric_limits<int64_t>::max();
  arrival_timer_ = 0;
  while (at < end && !runner_->stats().sending_complete) {
    runner_->on_arrival(phase_start_wall_ns_ + (at - phase_start_ns_));
    at = plan.arrivals->next(steady_now_ns() + kSendLeadNs);
    if (at > horizon) {
      arm_arrival(at);
      break;
    }
  }
  after_change();
}

void TimingService::on_cancel() {
  if (!runner_) return;
  user_cancelled_ = true;
  runner_->cancel_in_flight();
  phase_timers_.push_back(reactor().call_after(kCancelDrainNs, [this] {
    if (!runner_->stats().complete) {
      runner_->force_complete();
      after_change();
    }
  }));
  after_change();
}

// Publishes sending-complete / complete transitions and moves to the next phase.
void TimingService::after_change() {
  if (!runner_) return;
  const PhaseStats& st = runner_->stats();
  if (st.sending_complete && !sending_complete_published_) {
    sending_complete_published_ = true;
    sent_end_wall_ns_ = wall_now_ns();
    publish_phase(proto::PHASE_EVENT_SENDING_COMPLETE);
    const PhasePlan& plan = plans_[phase_index_];
    if (plan.grace_after_sending && plan.grace_seconds < kInfinity && !st.complete) {
      phase_timers_.push_back(reactor().call_after(static_cast<int64_t>(plan.grace_seconds * kSecond), [this] {
        if (!runner_ || runner_->stats().complete) return;
        AIPERF_LOG(kWarning) << "agentic warmup grace period expired: cancelling " << runner_->in_flight()
                             << " in-flight requests";
        runner_->cancel_in_flight();
        phase_timers_.push_back(reactor().call_after(kCancelDrainNs, [this] {
          if (!runner_ || runner_->stats().complete) return;
          runner_->force_complete();
          after_change();
        }));
        after_change();
      }));
    }
  }
  if (!st.complete) return flush_credits();
  if (const auto& rc = runner_->config(); rc.agentic && rc.system_idle_cap_ns) {
    AIPERF_LOG(kInfo) << "Global system-idle cap summary: limit=" << *rc.system_idle_cap_ns / 1e9
                      << "s, jumps=" << st.idle_jumps << ", skipped=" << st.idle_skipped_ns / 1e9 << "s";
  }
  if (st.context_overflows > 0)
    AIPERF_LOG(kInfo) << "Agentic replay: " << st.context_overflows
                      << " session(s) ended early by a context-overflow answer (their lanes moved on)";
  if (runner_->config().phase == proto::PHASE_PROFILING && profiler_) {
    // Stopped before the phase is reported complete, so the run cannot end with the stop in
    // flight; the phase still ends when its last return came.
    const int64_t end_wall_ns = wall_now_ns();
    profiler_->stop();
    publish_phase(proto::PHASE_EVENT_COMPLETE, end_wall_ns);
  } else {
    publish_phase(proto::PHASE_EVENT_COMPLETE);
  }
  for (auto id : phase_timers_) reactor().cancel(id);
  phase_timers_.clear();
  reactor().cancel(arrival_timer_);
  if (phase_index_ + 1 < plans_.size() && !user_cancelled_) {
    start_phase(phase_index_ + 1);
  } else {
    publish_phase(proto::PHASE_EVENT_ALL_COMPLETE);
    runner_.reset();
  }
  flush_credits();
}

void TimingService::publish_phase(proto::PhaseEventKind kind, int64_t end_wall_ns) {
  proto::BusMessage msg;
  auto* ev = msg.mutable_phase_event();
  const PhaseStats& st = runner_->stats();
  ev->set_kind(kind);
  ev->set_phase(runner_->config().phase);
  ev->set_sent(st.sent);
  ev->set_completed(st.completed);
  ev->set_cancelled(st.cancelled);
  ev->set_lost(st.lost);
  ev->set_total_expected(runner_->config().request_count.value_or(0));
  ev->set_start_wall_ns(phase_start_wall_ns_);
  ev->set_sent_end_wall_ns(sent_end_wall_ns_);
  if (kind == proto::PHASE_EVENT_COMPLETE || kind == proto::PHASE_EVENT_ALL_COMPLETE)
    ev->set_end_wall_ns(end_wall_ns ? end_wall_ns : wall_now_ns());
  ev->set_timeout_triggered(st.timeout_triggered);
  ev->set_was_cancelled(user_cancelled_);
  publish(bus::topic::kPhase, msg);
}

std::string TimingService::pick_worker() {
  std::string best;
  uint64_t best_load = std::numeric_limits<uint64_t>::max();
  for (const auto& [id, load] : worker_load_) {
    if (load < best_load) {
      best = id;
      best_load = load;
    }
  }
  return best;
}

// Credits wait in the outbox until the end of the current reactor pass (after_change).
void TimingService::send(const std::string& worker_id, const proto::Credit& credit) {
  *outbox_[worker_id].mutable_credits()->add_credits() = credit;
  ++worker_load_[worker_id];
  credit_worker_[credit.id()] = worker_id;
}

void TimingService::promote(const std::string& worker_id, uint64_t credit_id) {
  promotions_[worker_id].mutable_start_standby()->add_credit_ids(credit_id);
}

// The worker is gone (the controller saw its process die, or it no longer has a connection):
// whatever it held is settled by the runner, and it gets no more credits.
void TimingService::worker_lost(const std::string& worker_id) {
  if (!worker_load_.erase(worker_id)) return;  // unknown, or already settled
  AIPERF_LOG(kWarning) << "worker " << worker_id << " lost; its requests become errors";
  for (auto it = credit_worker_.begin(); it != credit_worker_.end();) {
    it = it->second == worker_id ? credit_worker_.erase(it) : std::next(it);
  }
  outbox_.erase(worker_id);
  promotions_.erase(worker_id);
  if (runner_) runner_->on_worker_lost(worker_id);
  after_change();
}

// Credits first, then the promotions that may name them.
void TimingService::flush_credits() {
  std::vector<std::string> unreachable;
  auto deliver = [&](const std::string& worker_id, proto::CreditMessage& msg) {
    try {
      router_.send_to(worker_id, msg);
    } catch (const zmq::error_t& e) {
      // EHOSTUNREACH (router_mandatory): its connection is gone, the process most likely
      // with it; the controller's notice may still be on its way.
      AIPERF_LOG(kWarning) << "cannot deliver credits to " << worker_id << ": " << e.what();
      unreachable.push_back(worker_id);
    }
    msg.Clear();
  };
  for (auto& [worker_id, msg] : outbox_) {
    if (msg.credits().credits_size() == 0) continue;
    msg.mutable_credits()->set_return_within_ns(return_within_ns_);
    deliver(worker_id, msg);
  }
  for (auto& [worker_id, msg] : promotions_) {
    if (msg.start_standby().credit_ids_size() > 0) deliver(worker_id, msg);
  }
  for (const std::string& worker_id : unreachable) worker_lost(worker_id);
}

void TimingService::cancel(const std::string& worker_id, const std::vector<uint64_t>& ids) {
  send_cancel(worker_id, ids, false);
}

void TimingService::revoke(const std::string& worker_id, const std::vector<uint64_t>& ids) {
  send_cancel(worker_id, ids, true);
}

void TimingService::send_cancel(const std::string& worker_id, const std::vector<uint64_t>& ids, bool standby_only) {
  flush_credits();  // a cancel must not overtake the credits it names
  proto::CreditMessage msg;
  for (uint64_t id : ids) msg.mutable_cancel()->add_credit_ids(id);
  msg.mutable_cancel()->set_standby_only(standby_only);
  try {
    router_.send_to(worker_id, msg);
  } catch (const zmq::error_t&) {
    // Worker gone: its credits are settled by the drain timeout.
  }
}

void TimingService::on_credit_socket() {
  zmq::message_t identity;
  for (;;) {
    proto::CreditMessage msg;
    const bus::Received got = router_.receive(identity, msg);
    if (got == bus::Received::kNone) return;
    if (got == bus::Received::kRejected) continue;
    const std::string worker = identity.to_string();
    if (msg.has_ready()) {
      worker_load_.try_emplace(worker, 0);
      AIPERF_LOG(kDebug) << "worker ready: " << worker;
      if (runner_) runner_->on_worker_available();
    } else if (msg.has_shutdown()) {
      worker_load_.erase(worker);
    } else if (msg.has_first_token()) {
      if (runner_ && msg.first_token().phase() == runner_->config().phase) runner_->on_first_token(msg.first_token().credit_id());
    } else if (msg.has_returns()) {
      if (runner_) {
        for (uint64_t id : msg.returns().started()) runner_->on_standby_started(id);
      }
      for (const proto::CreditReturn& ret : msg.returns().returns()) {
        if (auto it = credit_worker_.find(ret.credit_id()); it != credit_worker_.end() && it->second == worker) {
          credit_worker_.erase(it);
          if (auto w = worker_load_.find(worker); w != worker_load_.end() && w->second > 0) --w->second;
        }
        if (runner_) runner_->on_return(ret);
      }
    }
    after_change();
  }
}

}  // namespace aiperf::timing
