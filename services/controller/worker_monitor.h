// WorkerMonitor: watches the workers that joined from other hosts (`aiperf worker`). Local
// services are children the controller reaps, so their death is noticed at once; a remote
// worker's only sign of life is its heartbeat on the event bus. This observer logs where each
// remote worker runs and how far its wall clock is from the controller's, and reports a worker
// lost when it falls silent for longer than the deadline (the controller decides whether the
// run goes on without it).
#pragma once
#include <map>
#include <string>

#include "run_observer.h"
#include "service/service.h"
#include "time/clock.h"

namespace aiperf::controller {

// Three missed heartbeats plus a margin for a busy reactor or a slow network.
inline constexpr Nanos kRemoteWorkerSilenceDeadline = 3 * service::kHeartbeatInterval + 1'000'000'000;

class WorkerMonitor final : public RunObserver {
 public:
  explicit WorkerMonitor(RunControl& control, const Clock& clock = system_clock(),
                         Nanos deadline = kRemoteWorkerSilenceDeadline);

  void on_stage(std::string_view stage) override;
  void on_register(const proto::Register& reg, bool remote) override;
  void on_heartbeat(const proto::Heartbeat& hb) override;
  void tick(int64_t steady_ns) override;

  size_t remote_workers() const { return workers_.size(); }

 private:
  struct Remote {
    std::string host;
    Nanos last_seen = 0;  // steady time of the last register or heartbeat
  };
  RunControl& control_;
  const Clock& clock_;
  Nanos deadline_;
  std::map<std::string, Remote> workers_;
  bool watching_ = true;  // false once the results are in: workers may then exit at will
};

}  // namespace aiperf::controller
