#include "dashboard_ui.h"

#include "dashboard_view.h"
#include "log_tail.h"
#include "terminal.h"
#include "time/clock.h"

namespace aiperf::controller::ui {

std::string run_subtitle(const config::RunConfig& config) {
  std::string models;
  for (const auto& m : config.endpoint.model_names) models += (models.empty() ? "" : ",") + m;
  std::string s = "model " + models + " | " + config.endpoint.type + (config.endpoint.streaming ? " streaming" : "");
  for (const auto& url : config.endpoint.urls) s += " | " + url;
  if (config.loadgen.concurrency) s += " | concurrency " + std::to_string(*config.loadgen.concurrency);
  if (config.loadgen.request_rate) s += " | rate " + std::to_string(*config.loadgen.request_rate) + " req/s";
  if (config.loadgen.request_count) s += " | " + std::to_string(*config.loadgen.request_count) + " requests";
  return s;
}

DashboardUi::DashboardUi(const config::RunConfig& config, int fd)
    : fd_(fd),
      subtitle_(run_subtitle(config)),
      log_path_(config.output.artifact_dir + "/logs/aiperf.log"),
      duration_s_(config.loadgen.benchmark_duration) {
  terminal::enter_fullscreen(fd_);
  draw(steady_now_ns());
}

DashboardUi::~DashboardUi() { terminal::leave_fullscreen(); }

void DashboardUi::on_register(const proto::Register& reg, bool remote) {
  state_.on_register(reg, remote, steady_now_ns());
}

void DashboardUi::on_heartbeat(const proto::Heartbeat& hb) { state_.on_heartbeat(hb, steady_now_ns()); }

void DashboardUi::tick(int64_t steady_ns) {
  if (!finished_) draw(steady_ns);
}

void DashboardUi::finish() {
  finished_ = true;
  terminal::leave_fullscreen();
}

void DashboardUi::draw(int64_t steady_ns) {
  const terminal::Size size = terminal::size(fd_).value_or(terminal::Size{});
  DashboardInput in;
  in.state = &state_;
  in.subtitle = subtitle_;
  in.cols = size.cols;
  in.rows = size.rows;
  in.now_wall_ns = wall_now_ns();
  in.now_steady_ns = steady_ns;
  in.duration_s = duration_s_;
  in.log_path = log_path_;
  in.log_tail = tail_lines(log_path_, static_cast<std::size_t>(size.rows));
  const auto lines = render_dashboard(in);
  // One write per frame, every line overwritten and cleared to its end: no flicker, and
  // stray output from elsewhere (a child's warning on stderr) is gone by the next frame.
  std::string frame = "\x1b[H";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    frame += lines[i].heading ? "\x1b[1m" + lines[i].text + "\x1b[0m" : lines[i].text;
    frame += "\x1b[K";
    if (i + 1 < lines.size()) frame += "\r\n";  // no newline after the last row: it would scroll
  }
  terminal::write_all(fd_, frame);
}

}  // namespace aiperf::controller::ui
