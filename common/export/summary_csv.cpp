#include "export/summary_csv.h"

#include <algorithm>
#include <vector>

#include "util/output_paths.h"
#include "export/csv_row.h"
#include "export/number_format.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

namespace {

std::string name(const proto::MetricResult& m) {
  if (m.unit() == "count" || m.unit() == "requests") return m.header();
  return m.header() + " (" + m.unit() + ")";
}

// Every statistic, counts and token totals included, with two decimals: AIPerf 0.13's results
// hold floats throughout (min/max/sum come from float arrays, scalar values are float fields),
// and its CSV prints a float as f"{v:.2f}" ("Request Count,10.00").
std::string float_cell(bool present, double v) { return present ? fixed2(v) : std::string(); }

}  // namespace

std::string format_summary_csv(const proto::ProfileResults& results, std::string_view extra_section) {
  std::vector<const proto::MetricResult*> records, scalars;
  for (const auto& m : results.records()) {
    if (metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromExports)) continue;
    (m.is_record_metric() ? records : scalars).push_back(&m);
  }
  auto by_tag = [](auto* a, auto* b) { return a->tag() < b->tag(); };
  std::sort(records.begin(), records.end(), by_tag);
  std::sort(scalars.begin(), scalars.end(), by_tag);

  std::string out;
  if (!records.empty()) {
    append_csv_row(out, {"Metric", "avg", "min", "max", "sum", "p1", "p5", "p10", "p25", "p50", "p75", "p90",
              "p95", "p99", "std"});
    for (const auto* m : records) {
      append_csv_row(out, {name(*m), float_cell(m->has_avg(), m->avg()),
                float_cell(m->has_min(), m->min()), float_cell(m->has_max(), m->max()),
                float_cell(m->has_sum(), m->sum()), float_cell(m->has_p1(), m->p1()),
                float_cell(m->has_p5(), m->p5()), float_cell(m->has_p10(), m->p10()),
                float_cell(m->has_p25(), m->p25()), float_cell(m->has_p50(), m->p50()),
                float_cell(m->has_p75(), m->p75()), float_cell(m->has_p90(), m->p90()),
                float_cell(m->has_p95(), m->p95()), float_cell(m->has_p99(), m->p99()),
                float_cell(m->has_std(), m->std())});
    }
  }
  if (!scalars.empty()) {
    if (!records.empty()) out += "\r\n";
    append_csv_row(out, {"Metric", "Value"});
    for (const auto* m : scalars) append_csv_row(out, {name(*m), float_cell(m->has_avg(), m->avg())});
  }
  if (!extra_section.empty()) {
    if (!out.empty()) out += "\r\n";
    out += extra_section;
  }
  return out;
}

void write_summary_csv(const std::string& path, const proto::ProfileResults& results,
                       std::string_view extra_section) {
  util::write_file_atomically(path, format_summary_csv(results, extra_section));
}

}  // namespace aiperf::exporting
