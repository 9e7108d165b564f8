// RunObserver: something that watches a run from inside the controller — the progress UI, the
// live API server, the remote-worker monitor. Each lives in its own folder and only sees the
// run through these callbacks, so the controller's lifecycle code does not grow with them.
// Every callback runs on the controller's reactor thread and must return quickly (no blocking
// I/O); an observer that needs its own thread owns it and stops it in finish().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "control.pb.h"
#include "results.pb.h"

namespace aiperf::bus {
class Reactor;
}

namespace aiperf::controller {

// What an observer may do to the run.
class RunControl {
 public:
  virtual ~RunControl() = default;
  // Ends the run as failed with `reason` (exit code 1, partial results if any).
  virtual void abort_run(const std::string& reason) = 0;
  // A worker is gone (a remote one fell silent): the run goes on without it while other
  // workers remain (what it held becomes error records), else ends as aborted.
  virtual void worker_lost(const std::string& worker_id, const std::string& reason) = 0;
  // The reactor the controller runs on: observers may add fds/sockets or timers to it.
  virtual bus::Reactor& reactor() = 0;
};

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // "registering", "configuring", "waiting_remote", "running", "done".
  virtual void on_stage(std::string_view stage) {}
  virtual void on_register(const proto::Register& reg, bool remote) {}
  virtual void on_heartbeat(const proto::Heartbeat& hb) {}
  virtual void on_phase(const proto::PhaseEvent& ev) {}
  virtual void on_records_progress(const proto::RecordsProgress& progress) {}
  // Periodic snapshot of the metrics so far (published by the records service).
  virtual void on_live_metrics(const proto::ProfileResults& snapshot) {}
  virtual void on_results(const proto::ProfileResults& results) {}
  // Every 250 ms of steady time while the controller runs.
  virtual void tick(int64_t steady_ns) {}
  // The run is over and the report is about to be printed: restore the terminal, stop threads.
  virtual void finish() {}
};

using Observers = std::vector<std::unique_ptr<RunObserver>>;

}  // namespace aiperf::controller
