#include "dashboard_view.h"

#include <algorithm>
#include <cstdio>

#include "export/number_format.h"
#include "metrics/metric_flags.h"
#include "progress_format.h"

namespace aiperf::controller::ui {
namespace {

constexpr int kLabelWidth = 52;  // "Output Token Throughput Per User (tokens/sec/user)" is 50
constexpr int kValueWidth = 12;
constexpr int kMaxMetricRows = 16;
constexpr int kMaxWorkerRows = 8;
constexpr int kMinLogRows = 3;
// A service whose heartbeat is older than this is shown as stale (AIPerf's worker stale time).
constexpr int64_t kStaleNs = 10'000'000'000;

std::string pad_left(const std::string& s, int width) {
  return s.size() >= static_cast<std::size_t>(width) ? s : std::string(width - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, int width) {
  return s.size() >= static_cast<std::size_t>(width) ? s : s + std::string(width - s.size(), ' ');
}

const char* state_name(proto::LifecycleState s) {
  switch (s) {
    case proto::STATE_CREATED: return "created";
    case proto::STATE_INITIALIZING: return "initializing";
    case proto::STATE_INITIALIZED: return "initialized";
    case proto::STATE_STARTING: return "starting";
    case proto::STATE_RUNNING: return "running";
    case proto::STATE_STOPPING: return "stopping";
    case proto::STATE_STOPPED: return "stopped";
    case proto::STATE_FAILED: return "failed";
    default: return "unknown";
  }
}

}  // namespace

std::string fit_width(const std::string& text, int cols) {
  std::string out;
  int cells = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 1;
    len = std::min(len, text.size() - i);
    if (c < 0x20 || c == 0x7f) {
      ++i;
      continue;
    }
    if (cells == cols) break;
    out.append(text, i, len);
    ++cells;
    i += len;
  }
  return out;
}

std::vector<std::string> metric_rows(const proto::ProfileResults& metrics) {
  std::vector<const proto::MetricResult*> shown;
  for (const auto& m : metrics.records()) {
    if (!metrics::has_any_flag(m.flags(), metrics::flags::kHiddenFromConsole)) shown.push_back(&m);
  }
  std::stable_sort(shown.begin(), shown.end(), [](const auto* a, const auto* b) {
    // display_order 0 = none: after the ordered ones, as in the final table.
    const int oa = a->display_order() ? a->display_order() : 1 << 30;
    const int ob = b->display_order() ? b->display_order() : 1 << 30;
    return oa < ob;
  });
  std::vector<std::string> rows;
  for (const auto* m : shown) {
    std::string row = pad_right(m->header() + (m->unit().empty() ? "" : " (" + m->unit() + ")"), kLabelWidth);
    auto cell = [&](bool has, double v) {
      std::string text = "N/A";
      if (has) text = m->integer_values() && !m->is_record_metric() ? exporting::grouped_int(static_cast<int64_t>(v))
                                                                    : exporting::grouped2(v);
      row += pad_left(text, kValueWidth);
    };
    cell(m->has_avg(), m->avg());
    cell(m->has_min(), m->min());
    cell(m->has_max(), m->max());
    cell(m->has_p99(), m->p99());
    cell(m->has_p90(), m->p90());
    cell(m->has_p50(), m->p50());
    rows.push_back(row);
  }
  return rows;
}

std::vector<FrameLine> render_dashboard(const DashboardInput& in) {
  const RunState& st = *in.state;
  std::vector<FrameLine> lines;
  auto add = [&](const std::string& text, bool heading = false) { lines.push_back({text, heading}); };

  std::string elapsed;
  if (st.profiling.start_wall_ns) {
    const int64_t end = st.profiling.complete && st.profiling.end_wall_ns ? st.profiling.end_wall_ns : in.now_wall_ns;
    elapsed = "   profiling " + format_clock(static_cast<double>(end - st.profiling.start_wall_ns) / 1e9);
  }
  add("NVIDIA AIPerf | Dashboard   stage: " + st.stage + elapsed + "   (Ctrl-C: cancel, twice: abort)", true);
  add(in.subtitle);
  add("");

  add("Progress", true);
  const int bar = std::clamp(in.cols / 4, 10, 40);
  if (st.warmup.started) add("  " + format_progress_line(phase_progress(st, proto::PHASE_WARMUP, in.now_wall_ns, std::nullopt), bar));
  if (st.profiling.started) {
    add("  " + format_progress_line(phase_progress(st, proto::PHASE_PROFILING, in.now_wall_ns, in.duration_s), bar));
  } else if (!st.warmup.started) {
    add("  waiting for the benchmark to start");
  }
  if (st.profiling.complete) add("  " + format_progress_line(records_progress(st, in.now_wall_ns), bar));
  const PhaseState& current = st.profiling.started ? st.profiling : st.warmup;
  add("  in flight " + std::to_string(current.in_flight()) + " | sent " + std::to_string(current.sent) + " | cancelled " +
      std::to_string(current.cancelled) + " | records " + std::to_string(st.success_records) + " ok, " +
      std::to_string(st.error_records) + " errors" + (current.was_cancelled ? " | CANCELLED" : ""));
  add("");

  const proto::ProfileResults* metrics = st.metrics();
  std::string metrics_title = "Metrics";
  if (metrics) metrics_title += (st.results ? " (final, " : " (live, ") + std::to_string(metrics->completed()) + " records)";
  std::string header = pad_right(metrics_title, kLabelWidth);
  for (const char* col : {"avg", "min", "max", "p99", "p90", "p50"}) header += pad_left(col, kValueWidth);
  add(header, true);
  if (!metrics) {
    add("  (no records yet)");
  } else {
    const auto rows = metric_rows(*metrics);
    for (int i = 0; i < static_cast<int>(rows.size()) && i < kMaxMetricRows; ++i) add(rows[i]);
    if (static_cast<int>(rows.size()) > kMaxMetricRows)
      add("  ... " + std::to_string(rows.size() - kMaxMetricRows) + " more in the final report");
  }
  add("");

  std::vector<std::pair<std::string, const ServiceState*>> workers;
  int healthy = 0;
  for (const auto& [id, s] : st.services) {
    if (s.type != "worker") continue;
    workers.emplace_back(id, &s);
    if (in.now_steady_ns - s.last_seen_steady_ns <= kStaleNs && s.state != proto::STATE_FAILED) ++healthy;
  }
  add("Workers (" + std::to_string(workers.size()) + " registered, " + std::to_string(healthy) + " healthy, " +
          std::to_string(st.services.size() - workers.size()) + " other services)",
      true);
  for (int i = 0; i < static_cast<int>(workers.size()) && i < kMaxWorkerRows; ++i) {
    const auto& [id, s] = workers[i];
    const double age = static_cast<double>(in.now_steady_ns - s->last_seen_steady_ns) / 1e9;
    char seen[32];
    std::snprintf(seen, sizeof seen, "%.1fs ago", std::max(0.0, age));
    const std::string status = age * 1e9 > kStaleNs ? "stale" : state_name(s->state);
    add("  " + pad_right(id, 28) + pad_right("pid " + std::to_string(s->pid), 12) + pad_right(s->host, 20) +
        pad_right(status + (s->remote ? " (remote)" : ""), 22) + "last seen " + seen);
  }
  if (static_cast<int>(workers.size()) > kMaxWorkerRows)
    add("  ... " + std::to_string(workers.size() - kMaxWorkerRows) + " more");
  add("");

  add("Log: " + in.log_path, true);
  const int log_rows = std::max(kMinLogRows, in.rows - static_cast<int>(lines.size()));
  const std::size_t first = in.log_tail.size() > static_cast<std::size_t>(log_rows) ? in.log_tail.size() - log_rows : 0;
  for (std::size_t i = first; i < in.log_tail.size(); ++i) add("  " + in.log_tail[i]);

  lines.resize(static_cast<std::size_t>(std::max(0, in.rows)));  // cut a short terminal, pad a tall one
  for (auto& l : lines) l.text = fit_width(l.text, in.cols);
  return lines;
}

}  // namespace aiperf::controller::ui
