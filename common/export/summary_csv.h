// profile_export_aiperf.csv (spec §7.3).
#pragma once
#include <string>
#include <string_view>

#include "results.pb.h"

namespace aiperf::exporting {

// The CSV text: record metrics sorted by tag under
// "Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std", a blank row, then scalar
// metrics sorted by tag under "Metric,Value". CRLF line ends, minimal quoting. Name is
// "<Header> (<unit>)" except for count/requests units; integer-valued min/max/sum/value print
// as integers, everything else with 2 decimals, absent stats empty. INTERNAL/EXPERIMENTAL
// metrics are left out; NO_CONSOLE and ERROR_ONLY ones are included. `extra_section` (CSV
// text with CRLF line ends, e.g. GPU telemetry) follows after one blank row when not empty.
std::string format_summary_csv(const proto::ProfileResults& results, std::string_view extra_section = {});

// Writes format_summary_csv() to path atomically. Throws std::runtime_error on I/O failure.
void write_summary_csv(const std::string& path, const proto::ProfileResults& results,
                       std::string_view extra_section = {});

}  // namespace aiperf::exporting
