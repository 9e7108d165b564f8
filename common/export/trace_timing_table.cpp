#include "export/trace_timing_table.h"

#include <algorithm>

#include "export/console_table.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

namespace {

bool http_trace(uint64_t f) { return metrics::has_flags(f, metrics::flags::kHttpTraceOnly); }

}  // namespace

std::string format_trace_timing_table(const proto::ProfileResults& results, bool unicode_box) {
  const auto& r = results.records();
  if (std::none_of(r.begin(), r.end(), [](const auto& m) { return http_trace(m.flags()); })) return {};
  return format_metric_table(results, "HTTP Trace Timing", http_trace, unicode_box);
}

}  // namespace aiperf::exporting
