// ArrivalSchedule: exact inter-arrival sequences for a seed, distribution moments, catch-up.
#include <catch2/catch.hpp>

#include <cmath>

#include "arrival_schedule.h"

using aiperf::timing::ArrivalPattern;
using aiperf::timing::ArrivalSchedule;

TEST_CASE("constant arrivals are exactly 1/rate apart on an absolute schedule") {
  ArrivalSchedule s(ArrivalPattern::kConstant, 1000, 1, std::mt19937_64(1));
  s.start(5'000'000);
  CHECK(s.next(5'000'000) == 6'000'000);
  CHECK(s.next(6'000'100) == 7'000'000);  // late by 100 ns: next stays on schedule
  CHECK(s.next(7'000'000) == 8'000'000);
}

TEST_CASE("falling more than the catch-up window behind re-anchors instead of bursting") {
  ArrivalSchedule s(ArrivalPattern::kConstant, 1000, 1, std::mt19937_64(1), 10'000'000);
  s.start(0);
  CHECK(s.next(0) == 1'000'000);
  CHECK(s.next(5'000'000) == 2'000'000);    // 4 ms behind: within the window, catch up
  CHECK(s.next(50'000'000) == 51'000'000);  // 48 ms behind: re-anchored to now
}

TEST_CASE("poisson and gamma intervals have the requested mean and the gamma shape sets the spread") {
  auto moments = [](ArrivalPattern p, double k) {
    ArrivalSchedule s(p, 100, k, std::mt19937_64(42), INT64_MAX);
    s.start(0);
    const int n = 200000;
    double sum = 0, sum2 = 0;
    int64_t prev = 0;
    for (int i = 0; i < n; ++i) {
      const int64_t t = s.next(0);
      const double d = (t - prev) / 1e9;
      prev = t;
      sum += d;
      sum2 += d * d;
    }
    const double mean = sum / n;
    return std::pair{mean, std::sqrt(sum2 / n - mean * mean) / mean};  // mean, coefficient of variation
  };
  auto [pm, pcv] = moments(ArrivalPattern::kPoisson, 1);
  CHECK(pm == Approx(0.01).epsilon(0.01));
  CHECK(pcv == Approx(1.0).epsilon(0.02));  // exponential: CV = 1
  auto [gm, gcv] = moments(ArrivalPattern::kGamma, 4);
  CHECK(gm == Approx(0.01).epsilon(0.01));
  CHECK(gcv == Approx(0.5).epsilon(0.02));  // gamma shape k: CV = 1/sqrt(k)
}

TEST_CASE("the same seed gives the same arrival sequence") {
  ArrivalSchedule a(ArrivalPattern::kPoisson, 500, 1, std::mt19937_64(7), INT64_MAX);
  ArrivalSchedule b(ArrivalPattern::kPoisson, 500, 1, std::mt19937_64(7), INT64_MAX);
  a.start(0);
  b.start(0);
  for (int i = 0; i < 100; ++i) CHECK(a.next(0) == b.next(0));
}
