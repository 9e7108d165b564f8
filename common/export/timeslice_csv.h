// profile_export_aiperf_timeslices.csv (--slice-duration), as AIPerf 0.13 writes it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "results.pb.h"

namespace aiperf::exporting {

// One exported timeslice: its window [start_ns, end_ns), whether it ran its full length
// (false: the last slice, cut at the run's end) and its results (not owned).
struct TimesliceExport {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  bool complete = true;
  const proto::ProfileResults* results = nullptr;
};

// Tidy CSV "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value": for each slice (index =
// position in `slices`), its metrics sorted by tag, one row per present stat in the order
// avg, min, max, sum, p1 … p99, std. Metric is the bare header, Unit the display unit; every
// value has 2 decimals (0.13 converts all values to floats before export, counts and sums
// too). CRLF line ends, minimal quoting; INTERNAL/EXPERIMENTAL metrics left out.
std::string format_timeslice_csv(const std::vector<TimesliceExport>& slices);

}  // namespace aiperf::exporting
