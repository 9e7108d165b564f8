// --api-port: serves the run while it goes, from the controller process, on one port:
//   /metrics (Prometheus text), /healthz, /readyz, /api/progress, /api/metrics, /api/results,
//   /api/workers, /api/config.
// prometheus-cpp's own exposer (civetweb) only serves registries, so the HTTP side is a small
// Beast server (HttpServer) and prometheus-cpp supplies the metric model and text format.
// The server thread reads the RunState this observer folds on the reactor thread, under a mutex.
#pragma once
#include <mutex>
#include <string>

#include "config/run_config.h"
#include "http_server.h"
#include "prometheus_text.h"
#include "run_observer.h"
#include "ui/run_state.h"

namespace aiperf::controller::api {

class ApiServer final : public RunObserver {
 public:
  // Binds --api-host:--api-port now; throws std::runtime_error when it cannot.
  explicit ApiServer(const config::RunConfig& config);
  ~ApiServer() override;

  void on_stage(std::string_view stage) override;
  void on_register(const proto::Register& reg, bool remote) override;
  void on_heartbeat(const proto::Heartbeat& hb) override;
  void on_phase(const proto::PhaseEvent& ev) override;
  void on_records_progress(const proto::RecordsProgress& p) override;
  void on_live_metrics(const proto::ProfileResults& snapshot) override;
  void on_results(const proto::ProfileResults& results) override;
  void finish() override;

  // The response for GET `path` (any thread).
  HttpResponse handle(std::string_view path);
  uint16_t port() const { return server_.port(); }

 private:
  config::RunConfig config_;
  Labels labels_;
  std::string config_json_;
  std::mutex mu_;
  ui::RunState state_;  // guarded by mu_
  HttpServer server_;   // last: starts once everything it reads exists, stops first
};

}  // namespace aiperf::controller::api
