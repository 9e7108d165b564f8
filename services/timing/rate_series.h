// RateSeries: --request-rate-series, a piecewise-linear request-rate schedule (AIPerf 0.13's
// RateSeriesConfig / RateSeriesController). The file is JSON, either
//   {"points": [{"time_s": 0, "qps": 2}, {"time_s": 10, "qps": 20}, ...]}   or the bare array;
// at least two points, time_s >= 0 and strictly increasing, qps > 0, nothing else in a point.
// The rate at t seconds after the series starts is the first qps before the first point, the
// last one after the last point, and linear in between. The timing service samples it every
// 100 ms from the end of any --request-rate-ramp-duration.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aiperf::timing {

// A refused series file; what() is the reference's message ("Request-rate series requires at
// least two points", "Invalid request-rate series point 1: qps: ...").
class RateSeriesError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using RatePoints = std::vector<std::pair<double, double>>;  // (time_s, qps)

// Parses the file's text; throws RateSeriesError. `path` only names the file in messages.
RatePoints parse_rate_series(const std::string& text, const std::string& path);
// Reads and parses the file; throws RateSeriesError (also when it cannot be read).
RatePoints read_rate_series_file(const std::string& path);

// The rate `elapsed_s` seconds after the series started (points as validated above).
double rate_series_value(const RatePoints& points, double elapsed_s);

}  // namespace aiperf::timing
