#include "export/timeslice_csv.h"

#include <algorithm>

#include "export/csv_row.h"
#include "export/number_format.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

std::string format_timeslice_csv(const std::vector<proto::ProfileResults>& slices) {
  std::string out = "Timeslice,Metric,Unit,Stat,Value\r\n";
  for (std::size_t index = 0; index < slices.size(); ++index) {
    std::vector<const proto::MetricResult*> metrics;
    for (const auto& m : slices[index].records()) {
      if (!metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) metrics.push_back(&m);
    }
    std::sort(metrics.begin(), metrics.end(), [](auto* a, auto* b) { return a->tag() < b->tag(); });
    for (const auto* m : metrics) {
      const std::string prefix = std::to_string(index) + ',' + csv_field(m->header()) + ',' + csv_field(m->unit()) + ',';
      // Python prints numpy/int values as integers and floats with 2 decimals: a record
      // metric's mean, percentiles and std are floats; its min/max/sum and a scalar's value
      // stay integers for integer metrics.
      auto stat = [&](const char* name, bool present, double v, bool integral) {
        if (!present) return;
        out += prefix;
        out += name;
        out += ',';
        out += integral ? plain_int(v) : fixed2(v);
        out += "\r\n";
      };
      const bool ints = m->integer_values();
      stat("avg", m->has_avg(), m->avg(), ints && !m->is_record_metric());
      stat("min", m->has_min(), m->min(), ints);
      stat("max", m->has_max(), m->max(), ints);
      stat("sum", m->has_sum(), m->sum(), ints);
      stat("p1", m->has_p1(), m->p1(), false);
      stat("p5", m->has_p5(), m->p5(), false);
      stat("p10", m->has_p10(), m->p10(), false);
      stat("p25", m->has_p25(), m->p25(), false);
      stat("p50", m->has_p50(), m->p50(), false);
      stat("p75", m->has_p75(), m->p75(), false);
      stat("p90", m->has_p90(), m->p90(), false);
      stat("p95", m->has_p95(), m->p95(), false);
      stat("p99", m->has_p99(), m->p99(), false);
      stat("std", m->has_std(), m->std(), false);
    }
  }
  return out;
}

}  // namespace aiperf::exporting
