#include "worker_monitor.h"

#include <cstdio>

#include "log/log.h"

namespace aiperf::controller {
namespace {
std::string seconds(Nanos ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(ns) / 1e9);
  return buf;
}
}  // namespace

WorkerMonitor::WorkerMonitor(RunControl& control, const Clock& clock, Nanos deadline)
    : control_(control), clock_(clock), deadline_(deadline) {}

void WorkerMonitor::on_stage(std::string_view stage) {
  if (stage == "collecting" || stage == "done") watching_ = false;
}

void WorkerMonitor::on_register(const proto::Register& reg, bool remote) {
  if (!remote) return;
  auto [it, added] = workers_.try_emplace(reg.service_id());
  it->second.last_seen = clock_.steady_now();
  if (!added) return;  // a registration retry
  it->second.host = reg.hostname();
  // One-way: includes the bus latency, so it bounds the skew from above (~ms on a LAN).
  const double offset_ms = static_cast<double>(clock_.wall_now() - reg.wall_ns()) / 1e6;
  AIPERF_LOG(kInfo) << "remote worker " << reg.service_id() << " joined from host " << reg.hostname() << " (pid "
                    << reg.pid() << "); its wall clock is " << offset_ms
                    << " ms behind the controller's (positive = behind, bus latency included)";
}

void WorkerMonitor::on_heartbeat(const proto::Heartbeat& hb) {
  auto it = workers_.find(hb.service_id());
  if (it != workers_.end()) it->second.last_seen = clock_.steady_now();
}

void WorkerMonitor::tick(int64_t steady_ns) {
  if (!watching_) return;
  for (auto it = workers_.begin(); it != workers_.end(); ++it) {
    const Nanos silent = steady_ns - it->second.last_seen;
    if (silent <= deadline_) continue;
    // The credits this worker holds can only come back from it: waiting for them would only
    // end at the inactivity watchdog, much later and less clearly.
    const std::string id = it->first;
    const std::string reason = "remote worker " + id + " on host " + it->second.host + " sent no heartbeat for " +
                               seconds(silent) + " (deadline " + seconds(deadline_) +
                               "); the requests it holds cannot complete";
    AIPERF_LOG(kError) << reason;
    workers_.erase(it);  // reported once
    control_.worker_lost(id, reason);
    return;
  }
}

}  // namespace aiperf::controller
