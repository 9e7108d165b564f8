#include "export/console_table.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <utility>
#include <optional>

#include "export/number_format.h"
#include "export/text_table.h"
#include "metrics/metric_flags.h"

namespace aiperf::exporting {

namespace {

// Rich wraps the unit onto a second line for long headers to keep the Metric column narrow.
constexpr std::size_t kMaxSingleLineHeader = 30;

std::string label(const proto::MetricResult& m) {
  const char separator = m.header().size() > kMaxSingleLineHeader ? '\n' : ' ';
  return m.header() + separator + "(" + m.unit() + ")";
}

std::string cell(bool present, double v) { return present ? grouped2(v) : "N/A"; }

}  // namespace

std::string format_console_table(const proto::ProfileResults& results, const std::string& title, bool unicode_box) {
  // AIPerf 0.13 prints one table per console group with shown metrics, in this order, each
  // titled "<title>: <Group>" except the main one (Spec Decode is its own exporter, run after).
  static constexpr std::pair<proto::ConsoleGroup, const char*> kGroups[] = {
      {proto::CONSOLE_GROUP_EFFECTIVE, ": Effective"},
      {proto::CONSOLE_GROUP_ACTIVE, ": Active"},
      {proto::CONSOLE_GROUP_USAGE, ": Usage"},
      {proto::CONSOLE_GROUP_DEFAULT, ""},
      {proto::CONSOLE_GROUP_SPEC_DECODE, ": Spec Decode"}};
  std::string out;
  for (const auto& entry : kGroups) {
    const proto::ConsoleGroup group = entry.first;  // clang 14 (clang-tidy) cannot capture a structured binding
    out += format_metric_table(
        results, title + entry.second,
        [group](const proto::MetricResult& m) {
          return m.console_group() == group && !metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromConsole);
        },
        unicode_box);
  }
  return out;
}

std::string format_metric_table(const proto::ProfileResults& results, const std::string& title,
                                const std::function<bool(const proto::MetricResult&)>& show, bool unicode_box) {
  std::vector<const proto::MetricResult*> shown;
  for (const auto& m : results.records()) {
    if (show(m)) shown.push_back(&m);
  }
  if (shown.empty()) return {};
  // display_order 0 means "none": such metrics go last, keeping their result order.
  auto order = [](const proto::MetricResult* m) { return m->display_order() == 0 ? INT_MAX : m->display_order(); };
  std::stable_sort(shown.begin(), shown.end(), [&](auto* a, auto* b) { return order(a) < order(b); });

  TextTable t;
  t.title = "NVIDIA AIPerf | " + title;
  t.headers = {"Metric", "avg", "min", "max", "p99", "p90", "p50", "std"};
  t.justify.assign(t.headers.size(), Justify::kRight);
  for (const auto* m : shown) {
    t.rows.push_back({label(*m), cell(m->has_avg(), m->avg()), cell(m->has_min(), m->min()),
                      cell(m->has_max(), m->max()), cell(m->has_p99(), m->p99()), cell(m->has_p90(), m->p90()),
                      cell(m->has_p50(), m->p50()), cell(m->has_std(), m->std())});
  }
  return render_table(t, unicode_box);
}

std::string format_error_table(const proto::ProfileResults& results, bool unicode_box) {
  if (results.error_summary_size() == 0) return {};
  TextTable t;
  t.title = "NVIDIA AIPerf | Error Summary";
  t.headers = {"Code", "Type", "Message", "Count"};
  t.justify = {Justify::kRight, Justify::kRight, Justify::kLeft, Justify::kRight};
  for (const auto& e : results.error_summary()) {
    const auto& d = e.error_details();
    // AIPerf tests truthiness: a code of 0 prints as N/A too.
    t.rows.push_back({d.code() != 0 ? std::to_string(d.code()) : "N/A", d.type().empty() ? "N/A" : d.type(),
                      d.message(), grouped_int(static_cast<int64_t>(e.count()))});
  }
  return render_table(t, unicode_box);
}

}  // namespace aiperf::exporting
