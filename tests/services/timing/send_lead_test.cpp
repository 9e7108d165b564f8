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
