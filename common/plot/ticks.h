// Axis ticks: where the labelled marks of an axis go and how their numbers are written.
#pragma once
#include <string>
#include <vector>

namespace aiperf::plot {

struct AxisRange {
  double lo = 0, hi = 1;          // the drawn range (covers the data, widened to whole ticks)
  std::vector<double> ticks;      // labelled positions, ascending, inside [lo, hi]
  double step = 1;                // linear: distance between ticks; log: decades per tick
};

// Linear ticks for data in [lo, hi]: steps of 1, 2 or 5 x 10^k giving about `target` ticks;
// the range is widened to the ticks around the data. A single value (lo == hi) gets a range
// around it; lo > hi is swapped. Promise: ticks are multiples of step (no drift: each is i * step).
AxisRange nice_linear(double lo, double hi, int target = 6);

// Log ticks (base 10) for positive data in [lo, hi]: powers of ten, one every `step` decades so
// at most about `target` ticks; range widened to whole decades. Non-positive lo is clamped to
// hi / 1000 (log axes cannot show zero).
AxisRange nice_log(double lo, double hi, int target = 8);

// A tick's text: as few decimals as the step needs ("0.25", "1,500", "2e+06" for huge values,
// "-0" never). Log ticks pass step 0 and print powers as plain numbers up to 1e6.
std::string format_tick(double value, double step);

}  // namespace aiperf::plot
