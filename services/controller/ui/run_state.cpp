#include "run_state.h"

#include <algorithm>

namespace aiperf::controller::ui {

void RunState::on_register(const proto::Register& reg, bool remote, int64_t steady_ns) {
  ServiceState& s = services[reg.service_id()];
  s.type = reg.service_type();
  s.host = reg.hostname();
  s.pid = reg.pid();
  s.remote = remote;
  s.last_seen_steady_ns = steady_ns;
}

void RunState::on_heartbeat(const proto::Heartbeat& hb, int64_t steady_ns) {
  ServiceState& s = services[hb.service_id()];
  if (s.type.empty()) s.type = hb.service_type();
  s.state = hb.state();
  s.last_seen_steady_ns = steady_ns;
}

void RunState::on_phase(const proto::PhaseEvent& ev) {
  if (ev.phase() != proto::PHASE_WARMUP && ev.phase() != proto::PHASE_PROFILING) return;
  PhaseState& p = ev.phase() == proto::PHASE_WARMUP ? warmup : profiling;
  p.started = true;
  // Bus messages from one publisher arrive in order, but the counters only ever grow, so a
  // max keeps a late progress event from moving the bar backwards.
  p.sent = std::max(p.sent, ev.sent());
  p.completed = std::max(p.completed, ev.completed());
  p.cancelled = std::max(p.cancelled, ev.cancelled());
  p.total_expected = ev.total_expected();
  if (ev.start_wall_ns()) p.start_wall_ns = ev.start_wall_ns();
  p.was_cancelled = p.was_cancelled || ev.was_cancelled();
  switch (ev.kind()) {
    case proto::PHASE_EVENT_SENDING_COMPLETE: p.sending_complete = true; break;
    case proto::PHASE_EVENT_COMPLETE:
    case proto::PHASE_EVENT_ALL_COMPLETE:
      p.sending_complete = true;
      p.complete = true;
      if (ev.end_wall_ns()) p.end_wall_ns = ev.end_wall_ns();
      break;
    default: break;
  }
}

void RunState::on_records_progress(const proto::RecordsProgress& p) {
  if (p.phase() != proto::PHASE_PROFILING) return;
  success_records = p.success_records();
  error_records = p.error_records();
}

}  // namespace aiperf::controller::ui
