#include "export/trace_timing_table.h"

#include "export/console_table.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

std::string format_trace_timing_table(const proto::ProfileResults& results, bool unicode_box) {
  return format_metric_table(
      results, "HTTP Trace Timing",
      [](const proto::MetricResult& m) { return metrics::has_flags(m.flags(), metrics::flags::kHttpTraceOnly); },
      unicode_box);
}

}  // namespace aiperf::exporting
