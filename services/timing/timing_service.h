// Timing service: owns the credit schedule. Binds the credit ROUTER, learns workers from
// WorkerReady, runs the phases (warmup, then profiling) with PhaseRunner, paces request-rate
// arrivals on an absolute schedule (ArrivalSchedule), applies ramps, and publishes phase
// progress on the event bus.
#pragma once
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include <zmq.hpp>

#include "arrival_schedule.h"
#include "bus/channel.h"
#include "credit.pb.h"
#include "phase_runner.h"
#include "rate_series.h"
#include "server_profiler.h"
#include "service/service.h"

namespace aiperf::timing {

// One phase's runner settings plus the pacing and ramps the service applies around it.
struct PhasePlan {
  PhaseConfig runner;
  std::optional<ArrivalSchedule> arrivals;  // request-rate phases
  double grace_seconds = 0;                 // after the duration (infinity = wait)
  bool grace_after_sending = false;         // agentic warmup: the grace starts when sending completes
  std::optional<double> concurrency_ramp_s, prefill_ramp_s, rate_ramp_s;
  double target_rate = 0;
  RatePoints rate_series;  // --request-rate-series: sampled every 100 ms after the rate ramp
};

class TimingService final : public service::Service, public CreditSink {
 public:
  TimingService(service::Identity identity, bus::Endpoints endpoints);

 private:
  // Service hooks.
  void on_configure(const config::RunConfig& config) override;
  void on_start() override;
  void on_cancel() override;
  void on_bus(std::string_view topic, const proto::BusMessage& msg) override;

  // CreditSink.
  std::string pick_worker() override;
  void send(const std::string& worker_id, const proto::Credit& credit) override;
  void cancel(const std::string& worker_id, const std::vector<uint64_t>& credit_ids) override;
  void revoke(const std::string& worker_id, const std::vector<uint64_t>& credit_ids) override;
  void promote(const std::string& worker_id, uint64_t credit_id) override;
  void send_cancel(const std::string& worker_id, const std::vector<uint64_t>& credit_ids, bool standby_only);
  void call_at(int64_t at_ns, std::function<void()> fn) override;
  int64_t now_ns() override { return steady_now_ns(); }
  int64_t wall_ns() override { return wall_now_ns(); }

  std::vector<PhasePlan> build_plans() const;
  // AGENTIC_REPLAY (--scenario): the trajectories' warmup (when any lane has a turn before its
  // t*) and profiling phases.
  std::vector<PhasePlan> build_agentic_plans(std::mt19937_64& rng) const;
  void on_credit_socket();
  void start_phase(size_t index);
  void schedule_arrival();
  void release_arrivals(int64_t at_ns);
  void flush_credits();  // sends the outbox: one message per worker
  void worker_lost(const std::string& worker_id);
  void start_ramps(const PhasePlan& plan);
  // --request-rate-series: sets the rate the series has `now - series_start_ns` into it, and
  // brings the pending arrival forward when the new rate makes it due sooner.
  void apply_rate_series(int64_t series_start_ns);
  // Sets the arrival rate (ramps, series); a pending arrival comes sooner when the new rate
  // makes it due sooner (AIPerf reschedules on every rate update).
  void set_arrival_rate(double rate);
  void arm_arrival(int64_t at_ns);  // the one pending arrival timer, for arrival `at_ns`
  void after_change();
  // end_wall_ns: the phase's end when it came before the publish (0 = now).
  void publish_phase(proto::PhaseEventKind kind, int64_t end_wall_ns = 0);

  bus::Channel<proto::CreditMessage> router_;
  std::optional<config::RunConfig> config_;
  std::vector<ConversationInfo> conversations_;
  std::string sampling_;
  bool dataset_ready_ = false;
  bool configure_pending_ = false;

  std::vector<PhasePlan> plans_;
  size_t phase_index_ = 0;
  std::unique_ptr<PhaseRunner> runner_;
  bool sending_complete_published_ = false;
  bool user_cancelled_ = false;  // Ctrl-C: reported as was_cancelled
  int64_t phase_start_wall_ns_ = 0;
  int64_t phase_start_ns_ = 0;
  int64_t sent_end_wall_ns_ = 0;
  std::vector<bus::Reactor::TimerId> phase_timers_;
  bus::Reactor::TimerId arrival_timer_ = 0;  // the next rate arrival (0: none)
  int64_t pending_arrival_ns_ = 0;           // its intended time (steady)
  std::mt19937_64 rng_;
  std::unordered_map<std::string, uint64_t> worker_load_;  // worker id -> credits in flight
  std::unordered_map<uint64_t, std::string> credit_worker_;
  std::unordered_map<std::string, proto::CreditMessage> outbox_;  // credits issued this pass
  std::unordered_map<std::string, proto::CreditMessage> promotions_;  // standbys to start, this pass
  int64_t return_within_ns_ = 0;  // the current phase's Credits.return_within_ns
  std::unique_ptr<ServerProfiler> profiler_;  // --server-profiler (null when off)
};

}  // namespace aiperf::timing
