// The dashboard's frame as text: a pure function of the run state, the terminal size and the
// log tail, so tests can check it without a terminal. DashboardUi draws it.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run_state.h"

namespace aiperf::controller::ui {

struct DashboardInput {
  const RunState* state = nullptr;
  std::string subtitle;               // "model m | chat | streaming | http://..."
  int cols = 80;
  int rows = 24;
  int64_t now_wall_ns = 0;
  int64_t now_steady_ns = 0;          // for heartbeat ages
  std::optional<double> duration_s;   // --benchmark-duration
  std::string log_path;
  std::vector<std::string> log_tail;  // oldest first
};

struct FrameLine {
  std::string text;      // at most `cols` characters (UTF-8 code points)
  bool heading = false;  // drawn bold
};

// Exactly `rows` lines: header, progress, live metrics table, workers, log tail (which takes
// whatever height is left).
std::vector<FrameLine> render_dashboard(const DashboardInput& in);

// `text` cut to `cols` code points, control characters dropped.
std::string fit_width(const std::string& text, int cols);

// The metrics table rows: one per console metric ("<Header> (<unit>)" then avg, min, max,
// p99, p90, p50 like the final table), in display order.
std::vector<std::string> metric_rows(const proto::ProfileResults& metrics);

}  // namespace aiperf::controller::ui
