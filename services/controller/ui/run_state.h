// RunState: what the controller has heard about the run so far (stage, credit phases,
// records, services, live and final metrics), folded from the RunObserver callbacks. The
// progress UIs and the live API each keep one and render it; it does no I/O.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "control.pb.h"
#include "results.pb.h"

namespace aiperf::controller::ui {

struct PhaseState {
  bool started = false;
  bool sending_complete = false;
  bool complete = false;
  bool was_cancelled = false;
  uint64_t sent = 0;
  uint64_t completed = 0;        // credits returned
  uint64_t cancelled = 0;
  uint64_t total_expected = 0;   // 0 = unknown (duration-bound)
  int64_t start_wall_ns = 0;
  int64_t end_wall_ns = 0;       // set on complete

  // Requests sent but not returned yet.
  uint64_t in_flight() const { return sent > completed ? sent - completed : 0; }
};

struct ServiceState {
  std::string type;
  std::string host;
  int32_t pid = 0;
  bool remote = false;
  proto::LifecycleState state = proto::STATE_INITIALIZING;
  int64_t last_seen_steady_ns = 0;  // registration or last heartbeat
};

struct RunState {
  std::string stage = "registering";
  PhaseState warmup;
  PhaseState profiling;
  uint64_t success_records = 0;  // profiling records the records service received
  uint64_t error_records = 0;
  std::map<std::string, ServiceState> services;  // by service id
  std::optional<proto::ProfileResults> live;     // latest live snapshot
  std::optional<proto::ProfileResults> results;  // final results

  void on_stage(std::string_view s) { stage = std::string(s); }
  void on_register(const proto::Register& reg, bool remote, int64_t steady_ns);
  void on_heartbeat(const proto::Heartbeat& hb, int64_t steady_ns);
  void on_phase(const proto::PhaseEvent& ev);
  void on_records_progress(const proto::RecordsProgress& p);
  void on_live_metrics(const proto::ProfileResults& snapshot) { live = snapshot; }
  void on_results(const proto::ProfileResults& r) { results = r; }

  const PhaseState& phase(proto::Phase p) const { return p == proto::PHASE_WARMUP ? warmup : profiling; }
  // The newest metrics: the final results once in, else the live snapshot (nullptr if none).
  const proto::ProfileResults* metrics() const { return results ? &*results : live ? &*live : nullptr; }
};

}  // namespace aiperf::controller::ui
