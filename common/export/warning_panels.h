// Console warning panels printed after the tables (spec §6.3, §7.7): OSL mismatch (the
// server stopped short of max_tokens) and usage discrepancy (its token counts disagree
// with our tokenizer's).
#pragma once
#include <string>
#include <vector>

#include "results.pb.h"

namespace aiperf::exporting {

// The panels that apply to `results`, each preceded by a blank line; empty when none does
// (counts absent or 0, or no valid request). unicode_box selects rounded glyphs (terminal)
// or ASCII; usage_diff_threshold_pct is the run's AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD.
std::string format_warning_panels(const proto::ProfileResults& results, bool unicode_box = true,
                                  double usage_diff_threshold_pct = 10.0);

// One panel as those above (Rich Panel(expand=False, padding=(0, 2)), `title` centred in the top
// border), preceded by a blank line; shared with the Client vs Server section.
std::string format_panel(const std::string& title, const std::vector<std::string>& lines, bool unicode_box);

}  // namespace aiperf::exporting
