#include "genai_perf_windows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

namespace aiperf::cli::genai_perf {
namespace {

// How long past its settle time a window waits for a record that ends after it.
constexpr int64_t kLateRecordsNs = 2'000'000'000;

const char* const kNoValidRequests =
    "No valid requests recorded within time interval. Please use a larger time window.";

// max/min of the last kStableWindows values <= 1 + P/100 (perf_analyzer's test, in double).
template <typename F>
bool within(const std::vector<WindowStat>& w, double stability_percent, F value) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (size_t i = w.size() - kStableWindows; i < w.size(); ++i) {
    lo = std::min(lo, value(w[i]));
    hi = std::max(hi, value(w[i]));
  }
  return hi / lo <= 1 + stability_percent / 100;
}

}  // namespace

WindowStat window_stat(const std::vector<Completion>& completions, int64_t t0_ns, int64_t window_ns, size_t index) {
  const int64_t start = t0_ns + static_cast<int64_t>(index) * window_ns;
  const int64_t end = start + window_ns;
  WindowStat w;
  std::vector<uint64_t> latencies;
  for (const Completion& c : completions) {
    const bool in = c.end_ns <= end && (c.end_ns > start || (index == 0 && c.end_ns == start));
    if (in && c.start_ns <= c.end_ns) latencies.push_back(static_cast<uint64_t>(c.end_ns - c.start_ns));
  }
  w.count = static_cast<int64_t>(latencies.size());
  // perf_analyzer keeps the window's length in a float of seconds.
  const float seconds = static_cast<float>(window_ns) / 1e9f;
  w.infer_per_sec = static_cast<double>(static_cast<float>(w.count) / seconds);
  if (latencies.empty()) return w;
  uint64_t sum = 0;
  for (const uint64_t l : latencies) sum += l;
  w.avg_latency_ns = sum / latencies.size();
  if (latencies.size() == 1) {
    w.std_latency_us = std::numeric_limits<uint64_t>::max();
  } else {
    uint64_t squares = 0;
    for (const uint64_t l : latencies) {
      const int64_t d = static_cast<int64_t>(l - w.avg_latency_ns);
      squares += static_cast<uint64_t>(d * d);
    }
    w.std_latency_us = static_cast<uint64_t>(std::sqrt(static_cast<double>(squares / (latencies.size() - 1))) / 1000);
  }
  return w;
}

Outcome judge(const std::vector<WindowStat>& windows, double stability_percent, int max_trials) {
  const bool enough = windows.size() >= kStableWindows;
  bool all_measured = enough;
  if (enough)
    for (size_t i = windows.size() - kStableWindows; i < windows.size(); ++i) all_measured &= windows[i].count > 0;
  const bool throughput = all_measured && within(windows, stability_percent, [](const WindowStat& w) { return w.infer_per_sec; });
  const bool latency = all_measured && within(windows, stability_percent, [](const WindowStat& w) {
                         return static_cast<double>(w.avg_latency_ns);
                       });
  if (throughput && latency) return Outcome::kStable;
  if (static_cast<int>(windows.size()) < max_trials) return Outcome::kMeasuring;
  if (throughput) return Outcome::kLatencyUnstable;
  // perf_analyzer returns the error of an empty window among the last 3 before judging stability.
  const size_t from = windows.size() >= kStableWindows ? windows.size() - kStableWindows : 0;
  for (size_t i = from; i < windows.size(); ++i)
    if (windows[i].count == 0) return Outcome::kNoValidRequests;
  return Outcome::kUnstable;
}

std::vector<std::string> outcome_messages(Outcome outcome, const WindowPlan& plan) {
  switch (outcome) {
    case Outcome::kLatencyUnstable:
      return {"Warning: Request latency is not stabilizing. Please try lowering the request rate."};
    case Outcome::kNoValidRequests:
      return {kNoValidRequests};
    case Outcome::kUnstable:
      if (plan.request_rate) return {"Failed to obtain stable measurement.", "Failed to obtain stable measurement."};
      return {"Failed to obtain stable measurement within " + std::to_string(plan.max_trials) +
                  " measurement windows for concurrency " + std::to_string(plan.concurrency) +
                  ". Please try to increase the --measurement-interval.",
              "Failed to obtain stable measurement."};
    default:
      return {};
  }
}

int pa_exit_status(Outcome outcome) {
  if (outcome == Outcome::kUnstable) return 2;
  if (outcome == Outcome::kNoValidRequests) return 3;
  return 0;
}

std::string pass_line(size_t index, const WindowStat& w) {
  std::ostringstream o;
  o << "  Pass [" << index + 1 << "] ";
  if (w.count == 0) {
    o << "cb::Error: " << kNoValidRequests;
    return o.str();
  }
  o << "throughput: " << w.infer_per_sec << " infer/sec. Avg latency: " << w.avg_latency_ns / 1000 << " usec (std "
    << w.std_latency_us << " usec). ";
  return o.str();
}

WindowWatcher::WindowWatcher(WindowPlan plan, bool verbose, int64_t settle_ns)
    : plan_(plan), verbose_(verbose), settle_ns_(settle_ns) {}

void WindowWatcher::add_record_line(const std::string& line) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("metadata") || !j["metadata"].is_object()) return;
  const nlohmann::json& meta = j["metadata"];
  if (meta.value("benchmark_phase", "profiling") != "profiling") return;
  const int64_t start = meta.value("request_start_ns", int64_t{0});
  const int64_t end = meta.value("request_end_ns", int64_t{0});
  if (start > 0 && (first_start_ == 0 || start < first_start_)) first_start_ = start;
  last_end_ = std::max(last_end_, end);
  const bool failed = (j.contains("error") && !j["error"].is_null()) || meta.value("was_cancelled", false);
  if (!failed && start > 0 && end >= start) completions_.push_back({start, end});
}

Outcome WindowWatcher::poll(int64_t now_wall_ns) {
  const int64_t len = plan_.window_ns();
  while (outcome_ == Outcome::kMeasuring) {
    const int64_t start = t0_ != 0 ? t0_ : first_start_;
    if (start == 0 || len <= 0) break;
    const size_t k = windows_.size();
    const int64_t end = start + static_cast<int64_t>(k + 1) * len;
    if (now_wall_ns < end + settle_ns_) break;
    if (last_end_ <= end && now_wall_ns < end + settle_ns_ + kLateRecordsNs) break;
    t0_ = start;
    const WindowStat w = window_stat(completions_, t0_, len, k);
    windows_.push_back(w);
    if (w.count == 1)
      err_lines_.push_back("WARNING: Pass contained only one request, so sample latency standard deviation will be "
                           "infinity (UINT64_MAX).");
    if (verbose_) out_lines_.push_back(pass_line(k, w));
    outcome_ = judge(windows_, plan_.stability_percent, plan_.max_trials);
    for (const std::string& m : outcome_messages(outcome_, plan_)) err_lines_.push_back(m);
  }
  return outcome_;
}

std::vector<int64_t> WindowWatcher::boundaries() const {
  std::vector<int64_t> b;
  if (t0_ == 0) return b;
  for (size_t i = 0; i <= windows_.size(); ++i) b.push_back(t0_ + static_cast<int64_t>(i) * plan_.window_ns());
  return b;
}

std::vector<std::string> WindowWatcher::take_stderr() { return std::exchange(err_lines_, {}); }
std::vector<std::string> WindowWatcher::take_stdout() { return std::exchange(out_lines_, {}); }

std::vector<size_t> requests_in_windows(const std::vector<int64_t>& ends, const std::vector<int64_t>& boundaries) {
  std::vector<size_t> kept;
  if (boundaries.size() < 2) return kept;
  for (size_t i = 0; i < ends.size(); ++i)
    if (ends[i] >= boundaries.front() && ends[i] <= boundaries.back()) kept.push_back(i);
  return kept;
}

}  // namespace aiperf::cli::genai_perf
