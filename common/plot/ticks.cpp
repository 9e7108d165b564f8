#include "plot/ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aiperf::plot {

AxisRange nice_linear(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (lo > hi) std::swap(lo, hi);
  if (hi - lo < 1e-12 * std::max(1.0, std::fabs(hi))) {
    // One value: a range around it (zero gets [0, 1], others +-10% or so).
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= lo == 0 ? 0 : pad;
    hi += pad;
  }
  target = std::max(2, target);
  const double raw = (hi - lo) / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    step = m * mag;
    if (step >= raw) break;
  }
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  AxisRange r;
  r.step = step;
  r.lo = first * step;
  r.hi = last * step;
  for (double i = first; i <= last + 1e-9; i += 1) {
    const double v = i * step;
    r.ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  }
  return r;
}

AxisRange nice_log(double lo, double hi, int target) {
  if (!std::isfinite(hi) || hi <= 0) hi = 1;
  if (!std::isfinite(lo) || lo <= 0) lo = hi / 1000;
  if (lo > hi) std::swap(lo, hi);
  int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (d1 == d0) ++d1;
  const int decades = d1 - d0;
  const int every = std::max(1, (decades + target - 1) / std::max(1, target));
  AxisRange r;
  r.step = every;
  r.lo = std::pow(10.0, d0);
  r.hi = std::pow(10.0, d1);
  for (int d = d0; d <= d1; d += every) r.ticks.push_back(std::pow(10.0, d));
  return r;
}

namespace {
// "1234567.5" -> "1,234,567.5": the console's thousands separators.
std::string group_thousands(const std::string& s) {
  size_t start = s[0] == '-' ? 1 : 0;
  size_t dot = s.find('.');
  if (dot == std::string::npos) dot = s.size();
  std::string out = s.substr(0, start);
  const std::string whole = s.substr(start, dot - start);
  for (size_t i = 0; i < whole.size(); ++i) {
    if (i > 0 && (whole.size() - i) % 3 == 0) out += ',';
    out += whole[i];
  }
  return out + s.substr(dot);
}
}  // namespace

std::string format_tick(double value, double step) {
  char buf[64];
  if (value == 0) return "0";
  const double a = std::fabs(value);
  if (a >= 1e7 || (a < 1e-4)) {
    std::snprintf(buf, sizeof buf, "%.3g", value);
    return buf;
  }
  int decimals = 0;
  if (step > 0) {
    // Enough decimals that consecutive ticks differ: 0.25 needs 2, 0.5 needs 1.
    while (decimals < 6) {
      const double scaled = step * std::pow(10.0, decimals);
      if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
      ++decimals;
    }
  } else {
    while (decimals < 6 && std::fabs(value * std::pow(10.0, decimals) - std::round(value * std::pow(10.0, decimals))) > 1e-9)
      ++decimals;
  }
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return group_thousands(buf);
}

}  // namespace aiperf::plot
