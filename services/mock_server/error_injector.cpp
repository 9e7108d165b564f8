#include "error_injector.h"

namespace aiperf::mock {

ErrorInjector::ErrorInjector(double rate_percent, std::optional<uint64_t> seed)
    : rate_percent_(rate_percent), rng_(seed ? *seed : std::random_device{}()) {}

bool ErrorInjector::should_fail() {
  if (rate_percent_ <= 0.0) return false;
  if (rate_percent_ >= 100.0) return true;
  std::lock_guard lock(mutex_);
  return std::uniform_real_distribution<double>(0.0, 100.0)(rng_) < rate_percent_;
}

}  // namespace aiperf::mock
