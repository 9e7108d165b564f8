// profile_export_aiperf_timeslices.csv (--slice-duration, spec §6.6).
#pragma once
#include <string>
#include <vector>

#include "results.pb.h"

namespace aiperf::exporting {

// Tidy CSV "Timeslice,Metric,Unit,Stat,Value": for each slice (index = position in `slices`),
// its metrics sorted by tag, one row per present stat in the order avg, min, max, sum,
// p1 … p99, std. Metric is the bare header, Unit the display unit; integer values (min/max/sum
// and scalar values of integer metrics) print plainly, the rest with 2 decimals. CRLF line
// ends, minimal quoting; INTERNAL/EXPERIMENTAL metrics left out.
std::string format_timeslice_csv(const std::vector<proto::ProfileResults>& slices);

}  // namespace aiperf::exporting
