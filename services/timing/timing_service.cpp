#include "timing_service.h"

#include <limits>

#include "bus/socket.h"
#include "log/log.h"

namespace aiperf::timing {
namespace {
constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kCancelDrainNs = 10 * kSecond;  // AIPERF_TIMING_CANCEL_DRAIN_TIMEOUT
constexpr int64_t kProgressIntervalNs = kSecond;
}  // namespace

TimingService::TimingService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)), router_(bus::make_socket(zmq::socket_type::router)) {
  router_.set(zmq::sockopt::router_mandatory, 1);  // unknown worker: error, not a silent drop
  router_.bind(this->endpoints().credit);
  reactor().add_socket(router_, [this] { on_credit_socket(); });
  subscribe(bus::topic::kDataset);
}

void TimingService::on_configure(const config::RunConfig& config) {
  config_ = config;
  rng_.seed(config.input.random_seed ? *config.input.random_seed + 1 : std::random_device{}());
  const auto& l = config.loadgen;
  phases_.clear();
  PhaseConfig base;
  base.concurrency = l.concurrency;
  base.rate_mode = l.request_rate.has_value();
  base.url_count = static_cast<uint32_t>(config.endpoint.urls.size());
  if (l.warmup_request_count) {
    PhaseConfig warm = base;
    warm.phase = proto::PHASE_WARMUP;
    warm.request_count = l.warmup_request_count;
    phases_.push_back(warm);
  }
  PhaseConfig prof = base;
  prof.request_count = l.request_count;
  if (l.benchmark_duration) prof.duration_ns = static_cast<int64_t>(*l.benchmark_duration * kSecond);
  phases_.push_back(prof);

  if (!dataset_ready_) {
    configure_pending_ = true;
    defer_configure_response();
  }
}

void TimingService::on_bus(std::string_view topic, const proto::BusMessage& msg) {
  if (!msg.has_dataset_ready()) return;
  const auto& ready = msg.dataset_ready();
  conversations_.clear();
  for (int i = 0; i < ready.conversation_ids_size(); ++i) {
    conversations_.push_back({ready.conversation_ids(i), i < ready.turn_counts_size() ? ready.turn_counts(i) : 1u});
  }
  dataset_ready_ = true;
  if (configure_pending_) {
    configure_pending_ = false;
    complete_configure(!conversations_.empty(), conversations_.empty() ? "dataset is empty" : "");
  }
}

void TimingService::on_start() {
  if (!config_) return fail("start before configure");
  start_phase(0);
}

void TimingService::start_phase(size_t index) {
  phase_index_ = index;
  for (auto id : phase_timers_) reactor().cancel(id);
  phase_timers_.clear();
  sending_complete_published_ = false;
  // Credit ids restart per phase; anything left from a force-completed phase is forgotten.
  credit_worker_.clear();
  for (auto& [id, load] : worker_load_) load = 0;
  runner_ = std::make_unique<PhaseRunner>(phases_[index], conversations_, *this, rng_);
  phase_start_ns_ = steady_now_ns();
  phase_start_wall_ns_ = wall_now_ns();
  publish_phase(proto::PHASE_EVENT_START);
  const PhaseConfig& pc = phases_[index];

  phase_timers_.push_back(reactor().call_every(kProgressIntervalNs, [this] { publish_phase(proto::PHASE_EVENT_PROGRESS); }));
  if (pc.duration_ns) {
    const double grace = config_->loadgen.benchmark_grace_period;
    phase_timers_.push_back(reactor().call_at(phase_start_ns_ + *pc.duration_ns, [this] {
      runner_->stop_sending();
      after_change();
    }));
    if (grace < std::numeric_limits<double>::infinity()) {
      const int64_t grace_end = phase_start_ns_ + *pc.duration_ns + static_cast<int64_t>(grace * kSecond);
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
  runner_->start(phase_start_ns_, phase_start_wall_ns_);
  if (pc.rate_mode) {
    next_arrival_ns_ = phase_start_ns_;
    schedule_arrival();
  }
  after_change();
}

// Request-rate arrivals on an absolute schedule t_k = t0 + sum of intervals (no drift).
void TimingService::schedule_arrival() {
  const double rate = *config_->loadgen.request_rate;
  double interval_s = 1.0 / rate;
  if (config_->loadgen.arrival_pattern == "poisson") interval_s = std::exponential_distribution<double>(rate)(rng_);
  next_arrival_ns_ += static_cast<int64_t>(interval_s * kSecond);
  const int64_t at = next_arrival_ns_;
  phase_timers_.push_back(reactor().call_at(at, [this, at] {
    if (runner_->stats().sending_complete) return;
    runner_->on_arrival(steady_now_ns(), wall_now_ns(), phase_start_wall_ns_ + (at - phase_start_ns_));
    after_change();
    schedule_arrival();
  }));
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
  const PhaseStats& st = runner_->stats();
  if (st.sending_complete && !sending_complete_published_) {
    sending_complete_published_ = true;
    sent_end_wall_ns_ = wall_now_ns();
    publish_phase(proto::PHASE_EVENT_SENDING_COMPLETE);
  }
  if (!st.complete) return;
  publish_phase(proto::PHASE_EVENT_COMPLETE);
  for (auto id : phase_timers_) reactor().cancel(id);
  phase_timers_.clear();
  if (phase_index_ + 1 < phases_.size()) {
    start_phase(phase_index_ + 1);
  } else {
    publish_phase(proto::PHASE_EVENT_ALL_COMPLETE);
  }
}

void TimingService::publish_phase(proto::PhaseEventKind kind) {
  proto::BusMessage msg;
  auto* ev = msg.mutable_phase_event();
  const PhaseStats& st = runner_->stats();
  ev->set_kind(kind);
  ev->set_phase(runner_->config().phase);
  ev->set_sent(st.sent);
  ev->set_completed(st.completed);
  ev->set_cancelled(st.cancelled);
  ev->set_total_expected(runner_->config().request_count.value_or(0));
  ev->set_start_wall_ns(phase_start_wall_ns_);
  ev->set_sent_end_wall_ns(sent_end_wall_ns_);
  if (kind == proto::PHASE_EVENT_COMPLETE || kind == proto::PHASE_EVENT_ALL_COMPLETE) ev->set_end_wall_ns(wall_now_ns());
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

void TimingService::send(const std::string& worker_id, const proto::Credit& credit) {
  proto::CreditMessage msg;
  msg.set_version(proto::PROTO_VERSION_CURRENT);
  *msg.mutable_credit() = credit;
  try {
    router_.send(zmq::buffer(worker_id), zmq::send_flags::sndmore);
    bus::send_proto(router_, msg);
    ++worker_load_[worker_id];
    credit_worker_[credit.id()] = worker_id;
  } catch (const zmq::error_t& e) {
    fail("cannot deliver credit to " + worker_id + ": " + e.what());
  }
}

void TimingService::cancel(const std::string& worker_id, const std::vector<uint64_t>& ids) {
  proto::CreditMessage msg;
  msg.set_version(proto::PROTO_VERSION_CURRENT);
  for (uint64_t id : ids) msg.mutable_cancel()->add_credit_ids(id);
  try {
    router_.send(zmq::buffer(worker_id), zmq::send_flags::sndmore);
    bus::send_proto(router_, msg);
  } catch (const zmq::error_t&) {
    // Worker gone: its credits are settled by the drain timeout.
  }
}

void TimingService::on_credit_socket() {
  zmq::message_t identity, body;
  while (router_.recv(identity, zmq::recv_flags::dontwait)) {
    if (!identity.more() || !router_.recv(body, zmq::recv_flags::dontwait)) continue;
    proto::CreditMessage msg;
    if (!bus::parse_proto(body, msg) || msg.version() != proto::PROTO_VERSION_CURRENT) continue;
    const std::string worker(static_cast<const char*>(identity.data()), identity.size());
    if (msg.has_ready()) {
      worker_load_.try_emplace(worker, 0);
      AIPERF_LOG(kDebug) << "worker ready: " << worker;
      if (runner_) {
        runner_->on_worker_available(steady_now_ns(), wall_now_ns());
        after_change();
      }
    } else if (msg.has_shutdown()) {
      worker_load_.erase(worker);
    } else if (msg.has_credit_return()) {
      const auto& ret = msg.credit_return();
      if (auto it = credit_worker_.find(ret.credit().id()); it != credit_worker_.end() && it->second == worker) {
        credit_worker_.erase(it);
        if (auto w = worker_load_.find(worker); w != worker_load_.end() && w->second > 0) --w->second;
      }
      if (runner_) {
        runner_->on_return(ret, steady_now_ns(), wall_now_ns());
        after_change();
      }
    }
  }
}

}  // namespace aiperf::timing
