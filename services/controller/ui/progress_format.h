// Text of the progress displays (simple UI bars, dashboard progress rows), as pure functions
// of counts and times so tests can pin the exact strings.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "run_state.h"

namespace aiperf::controller::ui {

// One bar's inputs.
struct PhaseProgress {
  std::string label;                 // "Warmup", "Profiling", "Records"
  uint64_t done = 0;                 // requests (or records) finished
  uint64_t total = 0;                // 0 = unknown
  double elapsed_s = 0;
  std::optional<double> duration_s;  // --benchmark-duration: progress by time when total is 0
  uint64_t errors = 0;
  bool finished = false;             // the phase is over: ETA 00:00
  std::string rate_unit = "req/s";
};

// tqdm's clock: "MM:SS", or "H:MM:SS" from one hour on; negative or NaN -> "??:??".
std::string format_clock(double seconds);

// Fraction 0..1 of the phase done, nullopt when neither a total nor a duration bounds it.
std::optional<double> progress_fraction(const PhaseProgress& p);

// "Profiling: 40/100 |████████            |  40% [00:04<00:06, 10.00 req/s, 0 errors]"
// tqdm-like: the bar is `bar_width` cells, rate = done / elapsed ("?" before any time has
// passed), ETA from the rate and the remaining count (or the remaining duration); without a
// total the count has no "/total"; without any bound the bar and percentage are left out.
std::string format_progress_line(const PhaseProgress& p, int bar_width);

// The bar inputs for a credit phase at wall time `now_wall_ns`; errors = the records
// service's error count (profiling only, 0 for warmup).
PhaseProgress phase_progress(const RunState& state, proto::Phase phase, int64_t now_wall_ns,
                             std::optional<double> duration_s);

// Records received vs. requests completed, once the profiling phase is over.
PhaseProgress records_progress(const RunState& state, int64_t now_wall_ns);

}  // namespace aiperf::controller::ui
