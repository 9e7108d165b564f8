// The console tables printed after a run (spec §7.7).
#pragma once
#include <cstdint>
#include <string>

#include "results.pb.h"

namespace aiperf::exporting {

// "NVIDIA AIPerf | <title>" table: columns Metric (right-aligned), avg, min, max, p99, p90,
// p50, std; one row per console metric (no NO_CONSOLE/INTERNAL/EXPERIMENTAL/ERROR_ONLY flag)
// sorted by display_order; label "<Header> (<unit>)", the unit on its own line when the header
// exceeds 30 characters; numbers like f"{v:,.2f}", "N/A" when absent. unicode_box selects
// Rich's HEAVY_HEAD glyphs (terminal) or plain ASCII (pipes, files).
std::string format_console_table(const proto::ProfileResults& results, const std::string& title,
                                 bool unicode_box = true);

// The same table over the metrics `show(flags)` selects (e.g. the HTTP trace timing table).
std::string format_metric_table(const proto::ProfileResults& results, const std::string& title,
                                bool (*show)(uint64_t flags), bool unicode_box = true);

// "NVIDIA AIPerf | Error Summary" table (Code, Type, Message, Count) in first-seen order;
// "N/A" for a missing/zero code or empty type. Empty string when there were no errors.
std::string format_error_table(const proto::ProfileResults& results, bool unicode_box = true);

}  // namespace aiperf::exporting
