// Not a test: how precisely this host can wake a thread at a chosen instant, the floor under
// any schedule lag aiperf can reach. Three ways to wait for a 1 ms periodic instant:
//   sleep  - an absolute clock_nanosleep (1 ns timer slack);
//   worker - what the worker does: sleep until kSendSpinNs before the instant, then spin;
//   spin   - never sleep (a whole core for the duration).
// On a virtual machine, waking an idle vCPU costs a trip through the hypervisor, and "sleep"
// and "worker" pay it; "spin" shows what host preemption alone costs.
// Usage: wake_floor [samples per way, default 3000]
#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "time/send_lead.h"

namespace {

using aiperf::Nanos;

void sleep_until(Nanos at) {
  timespec ts{static_cast<time_t>(at / 1'000'000'000), static_cast<long>(at % 1'000'000'000)};
  clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr);
}

// Lateness (ns) of `n` waits for instants 1 ms apart; `early_ns` < 0 means never sleep.
std::vector<Nanos> measure(int n, Nanos early_ns, bool spin) {
  std::vector<Nanos> late;
  late.reserve(n);
  Nanos next = aiperf::steady_now_ns();
  for (int i = 0; i < n; ++i) {
    next += 1'000'000;
    if (early_ns >= 0) sleep_until(next - early_ns);
    if (spin) aiperf::spin_until(next);
    late.push_back(aiperf::steady_now_ns() - next);
  }
  std::sort(late.begin(), late.end());
  return late;
}

void print(const char* name, const std::vector<Nanos>& v) {
  auto q = [&](double p) { return v[std::min(v.size() - 1, static_cast<size_t>(p * (v.size() - 1)))] / 1e3; };
  std::printf("%-7s p50 %8.1f  p90 %8.1f  p99 %8.1f  p99.9 %8.1f  max %8.1f us\n", name, q(0.5), q(0.9), q(0.99),
              q(0.999), v.back() / 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::max(100, std::atoi(argv[1])) : 3000;
  prctl(PR_SET_TIMERSLACK, 1UL);
  std::printf("lateness of %d wake-ups at 1 ms intervals\n", n);
  print("sleep", measure(n, 0, false));
  print("worker", measure(n, aiperf::kSendSpinNs, true));
  print("spin", measure(n, -1, true));
}
