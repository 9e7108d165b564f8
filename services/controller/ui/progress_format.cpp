#include "progress_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aiperf::controller::ui {

std::string format_clock(double seconds) {
  if (!(seconds >= 0) || std::isinf(seconds)) return "??:??";
  const auto total = static_cast<uint64_t>(seconds);  // tqdm truncates
  const uint64_t h = total / 3600, m = total / 60 % 60, s = total % 60;
  char buf[32];
  if (h) std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", (unsigned long long)h, (unsigned long long)m, (unsigned long long)s);
  else std::snprintf(buf, sizeof buf, "%02llu:%02llu", (unsigned long long)m, (unsigned long long)s);
  return buf;
}

std::optional<double> progress_fraction(const PhaseProgress& p) {
  if (p.total > 0) return std::min(1.0, static_cast<double>(p.done) / static_cast<double>(p.total));
  if (p.duration_s && *p.duration_s > 0) return p.finished ? 1.0 : std::min(1.0, p.elapsed_s / *p.duration_s);
  return std::nullopt;
}

std::string format_progress_line(const PhaseProgress& p, int bar_width) {
  std::string out = p.label + ": " + std::to_string(p.done);
  if (p.total > 0) out += "/" + std::to_string(p.total);
  const std::optional<double> fraction = progress_fraction(p);
  if (fraction) {
    const int filled = static_cast<int>(*fraction * bar_width);  // tqdm floors the cells
    out += " |";
    for (int i = 0; i < bar_width; ++i) out += i < filled ? "\u2588" : " ";
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3.0f%%", *fraction * 100);  // tqdm's {percentage:3.0f}
    out += "| ";
    out += pct;
  }
  const bool has_rate = p.elapsed_s > 0;
  const double rate = has_rate ? static_cast<double>(p.done) / p.elapsed_s : 0;
  std::string eta = "?";
  if (p.finished) {
    eta = format_clock(0);
  } else if (p.total > 0 && rate > 0) {
    eta = format_clock(static_cast<double>(p.total - std::min(p.done, p.total)) / rate);
  } else if (p.total == 0 && p.duration_s) {
    eta = format_clock(std::max(0.0, *p.duration_s - p.elapsed_s));
  }
  char rate_text[32];
  if (has_rate) std::snprintf(rate_text, sizeof rate_text, "%.2f", rate);
  else std::snprintf(rate_text, sizeof rate_text, "?");
  out += " [" + format_clock(p.elapsed_s);
  if (fraction || p.finished) out += "<" + eta;
  out += ", " + std::string(rate_text) + " " + p.rate_unit + ", " + std::to_string(p.errors) + (p.errors == 1 ? " error]" : " errors]");
  return out;
}

namespace {
double seconds_between(int64_t from_wall_ns, int64_t to_wall_ns) {
  if (from_wall_ns <= 0 || to_wall_ns <= from_wall_ns) return 0;
  return static_cast<double>(to_wall_ns - from_wall_ns) / 1e9;
}
}  // namespace

PhaseProgress phase_progress(const RunState& state, proto::Phase phase, int64_t now_wall_ns,
                             std::optional<double> duration_s) {
  const PhaseState& ph = state.phase(phase);
  PhaseProgress p;
  p.label = phase == proto::PHASE_WARMUP ? "Warmup" : "Profiling";
  p.done = ph.completed;
  p.total = ph.total_expected;
  p.elapsed_s = seconds_between(ph.start_wall_ns, ph.complete && ph.end_wall_ns ? ph.end_wall_ns : now_wall_ns);
  p.duration_s = phase == proto::PHASE_PROFILING ? duration_s : std::nullopt;
  p.errors = phase == proto::PHASE_PROFILING ? state.error_records : 0;
  p.finished = ph.complete;
  return p;
}

PhaseProgress records_progress(const RunState& state, int64_t now_wall_ns) {
  PhaseProgress p;
  p.label = "Records";
  p.rate_unit = "records/s";
  p.total = state.profiling.completed;
  p.done = state.results ? state.results->completed() : state.success_records + state.error_records;
  p.errors = state.error_records;
  if (state.results) {
    p.errors = 0;
    for (const auto& e : state.results->error_summary()) p.errors += e.count();
  }
  p.elapsed_s = seconds_between(state.profiling.end_wall_ns, now_wall_ns);
  p.finished = state.results.has_value();
  return p;
}

}  // namespace aiperf::controller::ui
