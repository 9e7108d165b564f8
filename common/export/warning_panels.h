// Console warning panels printed after the tables (spec §6.3, §7.7): OSL mismatch (the
// server stopped short of max_tokens) and usage discrepancy (its token counts disagree
// with our tokenizer's).
#pragma once
#include <string>

#include "results.pb.h"

namespace aiperf::exporting {

// The panels that apply to `results`, each preceded by a blank line; empty when none does
// (counts absent or 0, or no valid request). unicode_box selects rounded glyphs (terminal)
// or ASCII.
std::string format_warning_panels(const proto::ProfileResults& results, bool unicode_box = true);

}  // namespace aiperf::exporting
