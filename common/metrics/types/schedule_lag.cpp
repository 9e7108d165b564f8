// Schedule Lag (not in AIPerf): actual request start (wall) - the start the schedule
// intended for the credit. Shows whether the load generator kept up with the requested
// rate or trace; only records whose credit carried an intended time have a value.
#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor schedule_lag() {
  MetricDescriptor d;
  d.tag = "schedule_lag";
  d.header = "Schedule Lag";
  d.unit = units::kNanoseconds;
  d.display_unit = units::kMilliseconds;
  d.flags = flags::kNoConsole;
  d.value_type = ValueType::kInt;
  d.record = [](const ParsedRecord& r, const RecordValues&) -> std::optional<double> {
    if (r.intended_start_wall_ns == 0) return std::nullopt;
    return static_cast<double>(r.start_wall_ns - r.intended_start_wall_ns);
  };
  return d;
}

}  // namespace aiperf::metrics::types
