#include "export/timeslice_csv.h"

#include <algorithm>

#include "export/csv_row.h"
#include "export/number_format.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

std::string format_timeslice_csv(const std::vector<TimesliceExport>& slices) {
  std::string out = "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value\r\n";
  for (std::size_t index = 0; index < slices.size(); ++index) {
    const TimesliceExport& slice = slices[index];
    std::vector<const proto::MetricResult*> metrics;
    for (const auto& m : slice.results->records()) {
      if (!metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) metrics.push_back(&m);
    }
    std::sort(metrics.begin(), metrics.end(), [](auto* a, auto* b) { return a->tag() < b->tag(); });
    const std::string window =
        std::to_string(index) + ',' + std::to_string(slice.start_ns) + ',' + std::to_string(slice.end_ns) + ',';
    for (const auto* m : metrics) {
      const std::string prefix = window + csv_field(m->header()) + ',' + csv_field(m->unit()) + ',';
      auto stat = [&](const char* name, bool present, double v) {
        if (!present) return;
        out += prefix;
        out += name;
        out += ',';
        out += fixed2(v);
        out += "\r\n";
      };
      stat("avg", m->has_avg(), m->avg());
      stat("min", m->has_min(), m->min());
      stat("max", m->has_max(), m->max());
      stat("sum", m->has_sum(), m->sum());
      stat("p1", m->has_p1(), m->p1());
      stat("p5", m->has_p5(), m->p5());
      stat("p10", m->has_p10(), m->p10());
      stat("p25", m->has_p25(), m->p25());
      stat("p50", m->has_p50(), m->p50());
      stat("p75", m->has_p75(), m->p75());
      stat("p90", m->has_p90(), m->p90());
      stat("p95", m->has_p95(), m->p95());
      stat("p99", m->has_p99(), m->p99());
      stat("std", m->has_std(), m->std());
    }
  }
  return out;
}

}  // namespace aiperf::exporting
