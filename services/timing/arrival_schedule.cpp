#include "arrival_schedule.h"

#include <cmath>

namespace aiperf::timing {

ArrivalPattern schedule_pattern(config::ArrivalPattern pattern) {
  switch (pattern) {
    case config::ArrivalPattern::kConstant:
      return ArrivalPattern::kConstant;
    case config::ArrivalPattern::kPoisson:
      return ArrivalPattern::kPoisson;
    case config::ArrivalPattern::kGamma:
      return ArrivalPattern::kGamma;
    case config::ArrivalPattern::kConcurrencyBurst:
      return ArrivalPattern::kConcurrencyBurst;
    case config::ArrivalPattern::kFixedSchedule:
    case config::ArrivalPattern::kUserCentricRate:
      return ArrivalPattern::kPoisson;
  }
  return ArrivalPattern::kPoisson;  // not reached: the switch covers every pattern
}

ArrivalSchedule::ArrivalSchedule(ArrivalPattern pattern, double rate, double smoothness, std::mt19937_64 rng,
                                 int64_t max_catchup_ns)
    : pattern_(pattern), rate_(rate), smoothness_(smoothness), rng_(rng), max_catchup_ns_(max_catchup_ns) {}

void ArrivalSchedule::start(int64_t t0_ns) { last_ns_ = t0_ns; }

int64_t ArrivalSchedule::interval_ns() {
  double seconds = 0;
  switch (pattern_) {
    case ArrivalPattern::kConstant:
      seconds = 1.0 / rate_;
      break;
    case ArrivalPattern::kPoisson:
      seconds = std::exponential_distribution<double>(rate_)(rng_);
      break;
    case ArrivalPattern::kGamma:
      seconds = std::gamma_distribution<double>(smoothness_, 1.0 / (rate_ * smoothness_))(rng_);
      break;
    case ArrivalPattern::kConcurrencyBurst:
      seconds = 0;
      break;
  }
  return static_cast<int64_t>(std::llround(seconds * 1e9));
}

int64_t ArrivalSchedule::next(int64_t now_ns) {
  if (now_ns - last_ns_ > max_catchup_ns_) last_ns_ = now_ns;  // too far behind: no burst
  last_ns_ += interval_ns();
  return last_ns_;
}

int64_t ArrivalSchedule::change_rate(double rate, int64_t now_ns, int64_t pending_ns) {
  if (rate == rate_) return pending_ns;
  rate_ = rate;
  const int64_t sooner = now_ns + interval_ns();
  if (sooner >= pending_ns) return pending_ns;
  last_ns_ = sooner;
  return sooner;
}

}  // namespace aiperf::timing
