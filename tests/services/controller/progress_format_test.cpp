// The progress line text (simple UI and dashboard) for given counts and times.
#include "progress_format.h"

#include <catch2/catch.hpp>

using namespace aiperf;
using namespace aiperf::controller::ui;

namespace {
constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kSec = 1'000'000'000;

std::string bar(int filled, int width) {
  std::string s;
  for (int i = 0; i < width; ++i) s += i < filled ? "\u2588" : " ";
  return s;
}

proto::PhaseEvent event(proto::PhaseEventKind kind, proto::Phase phase, uint64_t sent, uint64_t completed, uint64_t total) {
  proto::PhaseEvent ev;
  ev.set_kind(kind);
  ev.set_phase(phase);
  ev.set_sent(sent);
  ev.set_completed(completed);
  ev.set_total_expected(total);
  ev.set_start_wall_ns(kT0);
  return ev;
}
}  // namespace

TEST_CASE("format_clock prints tqdm's MM:SS and H:MM:SS") {
  CHECK(format_clock(0) == "00:00");
  CHECK(format_clock(59.9) == "00:59");
  CHECK(format_clock(61) == "01:01");
  CHECK(format_clock(3599) == "59:59");
  CHECK(format_clock(3661) == "1:01:01");
  CHECK(format_clock(-1) == "??:??");
}

TEST_CASE("a counted phase shows done/total, bar, percentage, elapsed<ETA, rate and errors") {
  PhaseProgress p;
  p.label = "Profiling";
  p.done = 40;
  p.total = 100;
  p.elapsed_s = 4.0;
  CHECK(format_progress_line(p, 20) == "Profiling: 40/100 |" + bar(8, 20) + "|  40% [00:04<00:06, 10.00 req/s, 0 errors]");
  p.errors = 1;
  CHECK(format_progress_line(p, 10) == "Profiling: 40/100 |" + bar(4, 10) + "|  40% [00:04<00:06, 10.00 req/s, 1 error]");
}

TEST_CASE("a finished phase shows a full bar and ETA 00:00") {
  PhaseProgress p;
  p.label = "Profiling";
  p.done = 100;
  p.total = 100;
  p.elapsed_s = 12.5;
  p.errors = 3;
  p.finished = true;
  CHECK(format_progress_line(p, 20) == "Profiling: 100/100 |" + bar(20, 20) + "| 100% [00:12<00:00, 8.00 req/s, 3 errors]");
}

TEST_CASE("before any time passed the rate and ETA are unknown") {
  PhaseProgress p;
  p.label = "Warmup";
  p.total = 10;
  CHECK(format_progress_line(p, 10) == "Warmup: 0/10 |" + bar(0, 10) + "|   0% [00:00<?, ? req/s, 0 errors]");
}

TEST_CASE("a duration-bound phase progresses by time") {
  PhaseProgress p;
  p.label = "Profiling";
  p.done = 25;
  p.elapsed_s = 10;
  p.duration_s = 30;
  // 1/3 of 20 cells is 6 whole cells; the percentage rounds like tqdm's {:3.0f}.
  CHECK(format_progress_line(p, 20) == "Profiling: 25 |" + bar(6, 20) + "|  33% [00:10<00:20, 2.50 req/s, 0 errors]");
}

TEST_CASE("an unbounded phase has no bar") {
  PhaseProgress p;
  p.label = "Profiling";
  p.done = 7;
  p.elapsed_s = 2;
  CHECK(format_progress_line(p, 20) == "Profiling: 7 [00:02, 3.50 req/s, 0 errors]");
}

TEST_CASE("phase_progress folds the phase events and the records service's error count") {
  RunState st;
  st.on_phase(event(proto::PHASE_EVENT_START, proto::PHASE_PROFILING, 0, 0, 100));
  st.on_phase(event(proto::PHASE_EVENT_PROGRESS, proto::PHASE_PROFILING, 44, 40, 100));
  proto::RecordsProgress rp;
  rp.set_phase(proto::PHASE_PROFILING);
  rp.set_success_records(36);
  rp.set_error_records(2);
  st.on_records_progress(rp);
  // A late progress event with smaller counts does not move the bar back.
  st.on_phase(event(proto::PHASE_EVENT_PROGRESS, proto::PHASE_PROFILING, 30, 30, 100));

  const PhaseProgress p = phase_progress(st, proto::PHASE_PROFILING, kT0 + 4 * kSec, std::nullopt);
  CHECK(p.done == 40);
  CHECK(p.total == 100);
  CHECK(p.errors == 2);
  CHECK(st.profiling.in_flight() == 4);
  CHECK(format_progress_line(p, 20) == "Profiling: 40/100 |" + bar(8, 20) + "|  40% [00:04<00:06, 10.00 req/s, 2 errors]");

  proto::PhaseEvent done = event(proto::PHASE_EVENT_COMPLETE, proto::PHASE_PROFILING, 100, 100, 100);
  done.set_end_wall_ns(kT0 + 20 * kSec);
  st.on_phase(done);
  // Elapsed stops at the phase end, whatever the clock says now.
  const PhaseProgress end = phase_progress(st, proto::PHASE_PROFILING, kT0 + 99 * kSec, std::nullopt);
  CHECK(format_progress_line(end, 10) == "Profiling: 100/100 |" + bar(10, 10) + "| 100% [00:20<00:00, 5.00 req/s, 2 errors]");
}

TEST_CASE("records_progress counts records against the completed requests") {
  RunState st;
  proto::PhaseEvent done = event(proto::PHASE_EVENT_COMPLETE, proto::PHASE_PROFILING, 50, 50, 50);
  done.set_end_wall_ns(kT0 + 10 * kSec);
  st.on_phase(done);
  proto::RecordsProgress rp;
  rp.set_phase(proto::PHASE_PROFILING);
  rp.set_success_records(20);
  rp.set_error_records(5);
  st.on_records_progress(rp);
  const PhaseProgress p = records_progress(st, kT0 + 15 * kSec);
  CHECK(format_progress_line(p, 10) ==
        "Records: 25/50 |" + bar(5, 10) + "|  50% [00:05<00:05, 5.00 records/s, 5 errors]");
}
