#include "simple_ui.h"

#include <unistd.h>

#include <algorithm>

#include "dashboard_view.h"
#include "terminal.h"
#include "time/clock.h"

namespace aiperf::controller::ui {
namespace {
constexpr int64_t kPlainIntervalNs = 10'000'000'000;
constexpr int kMaxBar = 40;
constexpr int kMinBar = 5;

// Display cells of a UTF-8 string whose characters are all one cell wide.
int cells(const std::string& s) {
  int n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}
}  // namespace

SimpleUi::SimpleUi(const config::RunConfig& config, int fd)
    : fd_(fd), tty_(::isatty(fd) != 0), duration_s_(config.loadgen.benchmark_duration) {}

std::optional<PhaseProgress> SimpleUi::progress_of(int64_t now_wall_ns) {
  for (;;) {
    switch (bar_) {
      case Bar::kWarmup:
        if (state_.warmup.started) return phase_progress(state_, proto::PHASE_WARMUP, now_wall_ns, std::nullopt);
        if (!state_.profiling.started) return std::nullopt;
        bar_ = Bar::kProfiling;  // no warmup in this run
        continue;
      case Bar::kProfiling:
        if (!state_.profiling.started) return std::nullopt;
        return phase_progress(state_, proto::PHASE_PROFILING, now_wall_ns, duration_s_);
      case Bar::kRecords:
        if (!state_.profiling.complete) return std::nullopt;
        return records_progress(state_, now_wall_ns);
      case Bar::kDone: return std::nullopt;
    }
  }
}

void SimpleUi::tick(int64_t) {
  if (!finished_) draw(false);
}

void SimpleUi::finish() {
  if (finished_) return;
  draw(true);
  finished_ = true;
}

void SimpleUi::draw(bool last) {
  const int64_t now = wall_now_ns();
  while (auto p = progress_of(now)) {
    if (p->finished || last) {
      emit(*p, true);
      bar_ = static_cast<Bar>(static_cast<int>(bar_) + 1);
      if (last && !p->finished) return;  // the run ended early: no later bar applies
      continue;
    }
    emit(*p, false);
    return;
  }
}

void SimpleUi::emit(const PhaseProgress& p, bool final_line) {
  if (!tty_) {
    const int64_t now = steady_now_ns();
    if (!final_line && now - last_plain_ns_ < kPlainIntervalNs) return;
    last_plain_ns_ = now;
    terminal::write_all(fd_, format_progress_line(p, 20) + "\n");
    return;
  }
  // Fit the line to the terminal: a wrapped line cannot be redrawn in place with \r.
  const int cols = terminal::size(fd_).value_or(terminal::Size{}).cols;
  const int bar = std::clamp(cols - 1 - cells(format_progress_line(p, 0)), kMinBar, kMaxBar);
  std::string out = "\r" + fit_width(format_progress_line(p, bar), cols - 1) + "\x1b[K";
  if (final_line) out += "\n";
  terminal::write_all(fd_, out);
}

}  // namespace aiperf::controller::ui
