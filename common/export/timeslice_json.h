// profile_export_aiperf_timeslices.json (--slice-duration), as AIPerf 0.13 writes it.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "export/timeslice_csv.h"

namespace aiperf::exporting {

// {"timeslices": [{"start_ns": …, "end_ns": …[, "is_complete": false], "<tag>": {unit, avg,
// p1 … p99, min, max, std, count, sum}, …}, …], "input_config": {…}} with 2-space
// indentation, no trailing newline. The slice order is the array order (no index key);
// is_complete appears only on a slice cut short. Metric objects as in
// profile_export_aiperf.json except that every statistic but count is a float (20.0), as
// 0.13 converts them; in result order, INTERNAL/EXPERIMENTAL left out. A null input_config
// is left out.
std::string format_timeslice_json(const std::vector<TimesliceExport>& slices,
                                  const nlohmann::ordered_json& input_config);

}  // namespace aiperf::exporting
