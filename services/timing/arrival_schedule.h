// ArrivalSchedule: the absolute send times of a request-rate phase, t_k = t0 + sum of
// intervals, from a seeded generator (spec §3.5):
//   constant: 1/rate;  poisson: exponential(rate);  gamma: gamma(shape k, scale 1/(rate k))
//   with k = --arrival-smoothness (k = 1 is Poisson, k < 1 burstier, k > 1 smoother).
// Being late never produces a burst larger than the catch-up window: when the schedule falls
// more than `max_catchup_ns` behind, it is re-anchored to now (AIPerf's post-fix semantics,
// AIPERF_TIMING_MAX_CATCHUP_SECONDS = 0.01). The rate can change at run time (ramps).
#pragma once
#include <cstdint>
#include <random>
#include <string>

#include "config/load_config.h"

namespace aiperf::timing {

enum class ArrivalPattern { kConstant, kPoisson, kGamma, kConcurrencyBurst };

// The schedule of a request-rate phase's configured pattern; the modes without one of their own
// (fixed_schedule, user_centric_rate: not paced by this schedule) get Poisson.
ArrivalPattern schedule_pattern(config::ArrivalPattern pattern);

class ArrivalSchedule {
 public:
  ArrivalSchedule(ArrivalPattern pattern, double rate, double smoothness, std::mt19937_64 rng,
                  int64_t max_catchup_ns = 10'000'000);

  // Starts the schedule at steady time t0; the first arrival is one interval after it.
  void start(int64_t t0_ns);
  // The next intended send time, given the current time (re-anchors when too far behind).
  int64_t next(int64_t now_ns);
  void set_rate(double rate) { rate_ = rate; }
  // A rate update while arrival `pending_ns` waits (AIPerf's rate-update reschedule): the
  // pending arrival moves to now + one interval at the new rate when that is sooner; returns
  // the (possibly earlier) pending time. Does nothing and returns pending_ns when the rate is
  // unchanged.
  int64_t change_rate(double rate, int64_t now_ns, int64_t pending_ns);
  double rate() const { return rate_; }

 private:
  int64_t interval_ns();

  ArrivalPattern pattern_;
  double rate_;
  double smoothness_;
  std::mt19937_64 rng_;
  int64_t max_catchup_ns_;
  int64_t last_ns_ = 0;
};

}  // namespace aiperf::timing
