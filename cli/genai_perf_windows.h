// perf_analyzer's measurement windows, as GenAI-Perf 0.0.16 drives them with
// `--measurement-interval/-p MS` (and `--stability-percentage/-s P`, default 999): the pure part.
//
// What perf_analyzer 2.51 (the one GenAI-Perf 0.0.16 runs) does, and what this reproduces:
//   - time windows back to back from the start of the load, each 1.2 x the interval long (it
//     sleeps interval * 1.2 ms per window);
//   - a window measures the requests that END in it (last response in [start, end]; a request
//     counts once, in the first window that holds its end): throughput = count / window length,
//     latency = their mean (end - start), in whole ns;
//   - after each window, the last 3 are stable when every one has a request and both max/min
//     throughput and max/min latency are <= 1 + P/100; then it stops;
//   - at most 10 windows (--max-trials, which GenAI-Perf never passes). After the 10th, with
//     --async (GenAI-Perf always passes it) a throughput-only match of the last 3 is accepted
//     with "Warning: Request latency is not stabilizing. ..."; otherwise it fails: exit 3 "No
//     valid requests recorded within time interval. ..." when one of the last 3 windows had no
//     request, else exit 2 "Failed to obtain stable measurement ..." (and GenAI-Perf exits 1,
//     having written only inputs.json);
//   - profile_export.json holds the requests of EVERY window (not only the last 3) and the
//     windows' boundaries; GenAI-Perf's statistics are computed from all of them.
// `--request-count N` is not a count window: perf_analyzer sends exactly N requests and measures
// them as one window, whatever the stability percentage (the front end's ordinary run).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace aiperf::cli::genai_perf {

constexpr int kMaxTrials = 10;       // perf_analyzer's --max-trials default
constexpr size_t kStableWindows = 3;  // perf_analyzer's stability window

// The measurement settings of one `genai-perf profile -p ...` run.
struct WindowPlan {
  int64_t interval_ms = 0;          // --measurement-interval
  double stability_percent = 999;   // --stability-percentage
  bool request_rate = false;        // the load, for perf_analyzer's failure message
  int64_t concurrency = 1;
  int max_trials = kMaxTrials;
  // A window's length: perf_analyzer sleeps 1.2 x the interval per window.
  int64_t window_ns() const { return interval_ms * 1'200'000; }
};

// One finished, successful request: its start and its last response, ns since the epoch.
struct Completion {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

// What perf_analyzer measures over one window.
struct WindowStat {
  int64_t count = 0;            // requests that ended in the window
  uint64_t avg_latency_ns = 0;  // sum(end - start) / count, integer division (0 when empty)
  uint64_t std_latency_us = 0;  // sample standard deviation, us (UINT64_MAX for one request, as perf_analyzer)
  double infer_per_sec = 0;     // count / window length in seconds
};

// Window `index` (0-based) of a series starting at `t0_ns`: the completions whose end lies in
// (t0 + index * len, t0 + (index + 1) * len], the first window also taking an end equal to t0.
WindowStat window_stat(const std::vector<Completion>& completions, int64_t t0_ns, int64_t window_ns, size_t index);

enum class Outcome {
  kMeasuring,           // fewer than max_trials windows and not stable yet
  kStable,              // the last 3 windows agree on throughput and latency
  kLatencyUnstable,     // max_trials reached; throughput stable, latency not: accepted with a warning
  kUnstable,            // max_trials reached; perf_analyzer exits 2
  kNoValidRequests,     // max_trials reached with an empty window among the last 3; exits 3
};

// perf_analyzer's verdict after `windows` (in order) at `stability_percent`.
Outcome judge(const std::vector<WindowStat>& windows, double stability_percent, int max_trials = kMaxTrials);

// What perf_analyzer prints on stderr once the outcome is known (the warning, or its failure
// lines); empty for kMeasuring and kStable.
std::vector<std::string> outcome_messages(Outcome outcome, const WindowPlan& plan);

// perf_analyzer's exit status for an outcome (0, 2 or 3).
int pa_exit_status(Outcome outcome);

// perf_analyzer's verbose line for window `index` (0-based):
// "  Pass [1] throughput: 33.3333 infer/sec. Avg latency: 65362 usec (std 73 usec). "
std::string pass_line(size_t index, const WindowStat& w);

// Follows a run as its records arrive (lines of our profile_export.jsonl) and closes windows as
// the wall clock passes their ends, judging after each. The windows start at the first
// profiling request's start (perf_analyzer starts its first window as the load starts); that
// start is fixed when the first window closes. A window closes `settle_ns` after its end, so
// the records of requests that ended in it have come through the pipeline, and once a record
// ending after it has arrived (records come roughly in end order), or 2 s later still.
class WindowWatcher {
 public:
  // `verbose`: collect perf_analyzer's pass lines (take_stdout).
  explicit WindowWatcher(WindowPlan plan, bool verbose = false, int64_t settle_ns = 300'000'000);

  // One line of profile_export.jsonl: profiling-phase records count (errors only for the
  // start of the load); other lines are ignored.
  void add_record_line(const std::string& line);
  // Closes the windows that have settled by `now_wall_ns` (stopping at a verdict); returns the
  // outcome so far.
  Outcome poll(int64_t now_wall_ns);

  Outcome outcome() const { return outcome_; }
  bool done() const { return outcome_ != Outcome::kMeasuring; }
  bool started() const { return t0_ != 0; }
  int64_t t0() const { return t0_; }
  const WindowPlan& plan() const { return plan_; }
  const std::vector<WindowStat>& windows() const { return windows_; }
  // t0, t0 + len, ..., t0 + n * len for the n closed windows (perf_analyzer's window_boundaries).
  std::vector<int64_t> boundaries() const;
  // Lines perf_analyzer would have printed since the last call: warnings for stderr
  // ("WARNING: Pass contained only one request, ...") and, verbose, pass lines for stdout.
  std::vector<std::string> take_stderr();
  std::vector<std::string> take_stdout();

 private:
  WindowPlan plan_;
  bool verbose_;
  int64_t settle_ns_;
  int64_t t0_ = 0;          // fixed when the first window closes
  int64_t first_start_ = 0; // earliest profiling request start seen so far
  int64_t last_end_ = 0;    // latest profiling request end seen so far
  std::vector<Completion> completions_;
  std::vector<WindowStat> windows_;
  Outcome outcome_ = Outcome::kMeasuring;
  std::vector<std::string> err_lines_, out_lines_;
};

// Which requests a windowed run reports: those whose last response lies within the closed
// windows, [boundaries.front(), boundaries.back()] (all of them, as perf_analyzer exports every
// window). `ends` holds each request's last response time; returns the indexes kept, in order.
std::vector<size_t> requests_in_windows(const std::vector<int64_t>& ends, const std::vector<int64_t>& boundaries);

}  // namespace aiperf::cli::genai_perf
