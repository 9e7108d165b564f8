// profile_export_aiperf_timeslices.json (--slice-duration, spec §6.6).
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results.pb.h"

namespace aiperf::exporting {

// {"timeslices": [{"timeslice_index": i, "<tag>": {unit, avg, p1 … p99, min, max, std}, …}, …],
//  "input_config": {…}} with 2-space indentation, no trailing newline; metric objects exactly
// as in profile_export_aiperf.json, in result order, INTERNAL/EXPERIMENTAL left out.
// A null input_config is left out.
std::string format_timeslice_json(const std::vector<proto::ProfileResults>& slices,
                                  const nlohmann::ordered_json& input_config);

}  // namespace aiperf::exporting
