// Decides which generation requests fail with HTTP 500 (--error-rate, --random-seed).
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>

namespace aiperf::mock {

class ErrorInjector {
 public:
  // `rate_percent` in [0, 100]; with a seed, the sequence of decisions (in arrival order) is
  // reproducible.
  ErrorInjector(double rate_percent, std::optional<uint64_t> seed);

  bool should_fail();

 private:
  double rate_percent_;
  std::mutex mutex_;  // one generator shared by all io threads; taken only when 0 < rate < 100
  std::mt19937_64 rng_;
};

}  // namespace aiperf::mock
