// The console tables printed after a run (spec §7.7).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "results.pb.h"

namespace aiperf::exporting {

// The console's metric tables, one per console group that has shown metrics (no
// NO_CONSOLE/INTERNAL/EXPERIMENTAL/ERROR_ONLY flag), in AIPerf 0.13's order: "NVIDIA AIPerf |
// <title>: Effective", ": Active", ": Usage", then the main "NVIDIA AIPerf | <title>", then
// the cache-reporting hint when it applies, then ": Spec Decode" followed by its pooled histogram
// line (format_acceptance_histogram_line). Columns
// Metric (right-aligned), avg, min, max, p99, p90, p50, std; rows sorted by display_order; label
// "<Header> (<unit>)", the unit on its own line when the header exceeds 30 characters; numbers
// like f"{v:,.2f}", "N/A" when absent. unicode_box selects Rich's HEAVY_HEAD glyphs (terminal)
// or plain ASCII (pipes, files).
std::string format_console_table(const proto::ProfileResults& results, const std::string& title,
                                 bool unicode_box = true);

// "Accepted drafts per step (% of steps):  0: 50%   1: 0%   2: 25% ..." as AIPerf 0.13 prints the
// pooled histogram: each bucket's share of the verify steps (:.0f), buckets 0 to the highest with
// steps, those from 8 up folded into one ">=8"; empty when no step was counted.
std::string format_acceptance_histogram_line(const google::protobuf::RepeatedField<int64_t>& histogram);

// AIPerf 0.13's hint when the server reports usage but no prompt-cache reads (a cache-capable
// server not told to report cached_tokens), and whether `results` call for it: total usage
// prompt tokens have a value and total prompt-cache reads none (a reported 0 counts as reported).
extern const char* const kCacheReportingHint;
bool usage_without_cache_reads(const proto::ProfileResults& results);

// One such table over the metrics `show` selects (e.g. the HTTP trace timing table); empty
// when it selects none.
std::string format_metric_table(const proto::ProfileResults& results, const std::string& title,
                                const std::function<bool(const proto::MetricResult&)>& show, bool unicode_box = true);

// "NVIDIA AIPerf | Error Summary" table (Code, Type, Message, Count) in first-seen order;
// "N/A" for a missing/zero code or empty type. Empty string when there were no errors.
std::string format_error_table(const proto::ProfileResults& results, bool unicode_box = true);

}  // namespace aiperf::exporting
