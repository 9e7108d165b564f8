// `--ui-type simple`: tqdm-like progress bars on stderr — Warmup, Profiling, then Records
// while the last records drain — each redrawn in place (\r) at most 4 times a second on a
// terminal and ended with a newline when its phase completes. When stderr is not a terminal
// it prints a plain line every 10 s and at each phase end instead.
#pragma once
#include <optional>

#include "config/run_config.h"
#include "progress_format.h"
#include "run_observer.h"
#include "run_state.h"

namespace aiperf::controller::ui {

class SimpleUi final : public RunObserver {
 public:
  explicit SimpleUi(const config::RunConfig& config, int fd);

  void on_stage(std::string_view stage) override { state_.on_stage(stage); }
  void on_phase(const proto::PhaseEvent& ev) override { state_.on_phase(ev); }
  void on_records_progress(const proto::RecordsProgress& p) override { state_.on_records_progress(p); }
  void on_results(const proto::ProfileResults& r) override { state_.on_results(r); }
  void tick(int64_t steady_ns) override;
  void finish() override;

 private:
  enum class Bar { kWarmup, kProfiling, kRecords, kDone };
  std::optional<PhaseProgress> progress_of(int64_t now_wall_ns);
  void draw(bool last);
  void emit(const PhaseProgress& p, bool final_line);

  int fd_;
  bool tty_;
  std::optional<double> duration_s_;
  RunState state_;
  Bar bar_ = Bar::kWarmup;
  int64_t last_plain_ns_ = 0;    // steady time of the last non-terminal line
  bool finished_ = false;
};

}  // namespace aiperf::controller::ui
