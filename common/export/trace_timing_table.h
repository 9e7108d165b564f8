// "NVIDIA AIPerf | HTTP Trace Timing" (--show-trace-timing, spec §7.7): the console table over
// the HTTP_TRACE_ONLY metrics (http_req_*), which the main table leaves out as NO_CONSOLE.
#pragma once
#include <string>

#include "results.pb.h"

namespace aiperf::exporting {

// The table in display order, same columns and number format as the main table; empty string
// when the results hold no HTTP trace metric (no valid request).
std::string format_trace_timing_table(const proto::ProfileResults& results, bool unicode_box = true);

}  // namespace aiperf::exporting
