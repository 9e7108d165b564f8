// --goodput "tag:value tag:value ..." -> service-level objectives (spec §6.4).
#pragma once
#include <string>
#include <vector>

#include "metrics/metric_context.h"

namespace aiperf::metrics {

// Parses the SLO string. Values are in each metric's display unit and come back in its base
// unit, with the comparison direction taken from LARGER_IS_BETTER. Only scalar record
// metrics applicable under `ctx` are allowed. Throws std::invalid_argument with a message
// starting "Invalid --goodput:" for a malformed pair, a non-numeric or negative value, a
// repeated tag, or metrics that are unknown, not per-record or not applicable.
std::vector<GoodputSlo> parse_goodput(const std::string& spec, const MetricContext& ctx);

}  // namespace aiperf::metrics
