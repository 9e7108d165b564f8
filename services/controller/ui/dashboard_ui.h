// `--ui-type dashboard`: a full-screen live view on the alternate screen (progress, live
// metrics, workers, log tail) redrawn on every controller tick (4 Hz). finish() — and the
// destructor, for exceptions — put the terminal back before the report prints.
#pragma once
#include <optional>
#include <string>

#include "config/run_config.h"
#include "run_observer.h"
#include "run_state.h"

namespace aiperf::controller::ui {

class DashboardUi final : public RunObserver {
 public:
  // `fd` must be a terminal; enters the alternate screen at once.
  DashboardUi(const config::RunConfig& config, int fd);
  ~DashboardUi() override;

  void on_stage(std::string_view stage) override { state_.on_stage(stage); }
  void on_register(const proto::Register& reg, bool remote) override;
  void on_heartbeat(const proto::Heartbeat& hb) override;
  void on_phase(const proto::PhaseEvent& ev) override { state_.on_phase(ev); }
  void on_records_progress(const proto::RecordsProgress& p) override { state_.on_records_progress(p); }
  void on_live_metrics(const proto::ProfileResults& s) override { state_.on_live_metrics(s); }
  void on_results(const proto::ProfileResults& r) override { state_.on_results(r); }
  void tick(int64_t steady_ns) override;
  void finish() override;

 private:
  void draw(int64_t steady_ns);

  int fd_;
  std::string subtitle_;
  std::string log_path_;
  std::optional<double> duration_s_;
  RunState state_;
  bool finished_ = false;
};

// A one-line description of the run for the dashboard header.
std::string run_subtitle(const config::RunConfig& config);

}  // namespace aiperf::controller::ui
