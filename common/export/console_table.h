// The console tables printed after a run (spec §7.7).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "results.pb.h"

namespace aiperf::exporting {

// The console's metric tables, one per console group that has shown metrics (no
// NO_CONSOLE/INTERNAL/EXPERIMENTAL/ERROR_ONLY flag), in AIPerf 0.13's order: "NVIDIA AIPerf |
// <title>: Effective", ": Active", ": Usage", then the main "NVIDIA AIPerf | <title>". Columns
// Metric (right-aligned), avg, min, max, p99, p90, p50, std; rows sorted by display_order; label
// "<Header> (<unit>)", the unit on its own line when the header exceeds 30 characters; numbers
// like f"{v:,.2f}", "N/A" when absent. unicode_box selects Rich's HEAVY_HEAD glyphs (terminal)
// or plain ASCII (pipes, files).
std::string format_console_table(const proto::ProfileResults& results, const std::string& title,
                                 bool unicode_box = true);

// One such table over the metrics `show` selects (e.g. the HTTP trace timing table); empty
// when it selects none.
std::string format_metric_table(const proto::ProfileResults& results, const std::string& title,
                                const std::function<bool(const proto::MetricResult&)>& show, bool unicode_box = true);

// "NVIDIA AIPerf | Error Summary" table (Code, Type, Message, Count) in first-seen order;
// "N/A" for a missing/zero code or empty type. Empty string when there were no errors.
std::string format_error_table(const proto::ProfileResults& results, bool unicode_box = true);

}  // namespace aiperf::exporting
