// The worker's wait for a scheduled credit: on time when clocks agree, bounded when they do not.
#include <catch2/catch.hpp>

#include "time/send_lead.h"

using aiperf::kMaxSendWaitNs;
using aiperf::kSendLeadNs;
using aiperf::send_wait_ns;

TEST_CASE("a credit that arrives with the usual lead waits exactly until its intended time", "[timing]") {
  const aiperf::Nanos now = 1'800'000'000'000'000'000;
  CHECK(send_wait_ns(now + kSendLeadNs, now) == kSendLeadNs);
  CHECK(send_wait_ns(now + 1234, now) == 1234);
}

TEST_CASE("unscheduled and late credits are sent at once", "[timing]") {
  const aiperf::Nanos now = 1'800'000'000'000'000'000;
  CHECK(send_wait_ns(0, now) == 0);
  CHECK(send_wait_ns(now - 5'000'000, now) == 0);
  CHECK(send_wait_ns(now, now) == 0);
}

TEST_CASE("a wall clock stepped back by minutes cannot hold a credit for minutes", "[timing]") {
  const aiperf::Nanos intended = 1'800'000'000'000'000'000;
  const aiperf::Nanos stepped_back = intended - 300'000'000'000;  // 5 min behind the timing service
  CHECK(send_wait_ns(intended, stepped_back) == kMaxSendWaitNs);
  CHECK(kMaxSendWaitNs == 10'000'000);
}

TEST_CASE("spinning is budgeted to a tenth of elapsed time, with a capped reserve", "[timing]") {
  aiperf::SpinBudget budget;
  const aiperf::Nanos spin = aiperf::kSendSpinNs;  // 150 us
  aiperf::Nanos now = 1'000'000'000;
  // The 5 ms reserve allows 33 back-to-back spins of 150 us, then none.
  int spins = 0;
  while (budget.allows(spin, now) && spins < 100) {
    budget.spend(spin);
    ++spins;
  }
  CHECK(spins == 33);
  // 1.5 ms later a tenth of it (150 us) has come back: exactly one more spin.
  now += 1'500'000;
  CHECK(budget.allows(spin, now));
  budget.spend(spin);
  CHECK_FALSE(budget.allows(spin, now));
  // A long idle spell refills only up to the cap.
  now += 60'000'000'000;
  spins = 0;
  while (budget.allows(spin, now) && spins < 100) {
    budget.spend(spin);
    ++spins;
  }
  CHECK(spins == 33);
}
