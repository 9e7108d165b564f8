#include "api_server.h"

#include "api_json.h"
#include "log/log.h"
#include "time/clock.h"

namespace aiperf::controller::api {
namespace {
constexpr const char* kJson = "application/json";
constexpr const char* kPrometheus = "text/plain; version=0.0.4; charset=utf-8";
}  // namespace

ApiServer::ApiServer(const config::RunConfig& config)
    : config_(config),
      labels_(info_labels(config)),
      config_json_(config::input_config_json(config).dump(2)),
      server_(config.service.api_host, config.service.api_port.value_or(0),
              [this](std::string_view path) { return handle(path); }) {
  AIPERF_LOG(kInfo) << "live API on http://" << config.service.api_host << ":" << server_.port()
                    << " (/metrics, /api/progress, /api/metrics, /api/results)";
}

ApiServer::~ApiServer() { server_.stop(); }

void ApiServer::on_stage(std::string_view stage) {
  std::lock_guard lock(mu_);
  state_.on_stage(stage);
}

void ApiServer::on_register(const proto::Register& reg, bool remote) {
  std::lock_guard lock(mu_);
  state_.on_register(reg, remote, steady_now_ns());
}

void ApiServer::on_heartbeat(const proto::Heartbeat& hb) {
  std::lock_guard lock(mu_);
  state_.on_heartbeat(hb, steady_now_ns());
}

void ApiServer::on_phase(const proto::PhaseEvent& ev) {
  std::lock_guard lock(mu_);
  state_.on_phase(ev);
}

void ApiServer::on_records_progress(const proto::RecordsProgress& p) {
  std::lock_guard lock(mu_);
  state_.on_records_progress(p);
}

void ApiServer::on_live_metrics(const proto::ProfileResults& snapshot) {
  std::lock_guard lock(mu_);
  state_.on_live_metrics(snapshot);
}

void ApiServer::on_results(const proto::ProfileResults& results) {
  std::lock_guard lock(mu_);
  state_.on_results(results);
}

void ApiServer::finish() { server_.stop(); }

HttpResponse ApiServer::handle(std::string_view path) {
  // Rendering under the lock is cheap (tens of metrics) and keeps the reactor's updates whole.
  std::lock_guard lock(mu_);
  if (path == "/metrics") return {200, kPrometheus, prometheus_text(state_, labels_)};
  if (path == "/healthz") return {200, "text/plain; charset=utf-8", "ok"};
  if (path == "/readyz") {
    const bool ready = state_.stage != "registering" && state_.stage != "configuring";
    return ready ? HttpResponse{200, "text/plain; charset=utf-8", "ok"}
                 : HttpResponse{503, "text/plain; charset=utf-8", "not ready"};
  }
  if (path == "/api/progress") return {200, kJson, progress_json(state_, wall_now_ns(), steady_now_ns()).dump()};
  if (path == "/api/metrics") return {200, kJson, metrics_json(state_, config_).dump()};
  if (path == "/api/results") return {200, kJson, results_json(state_).dump()};
  if (path == "/api/workers") return {200, kJson, workers_json(state_, steady_now_ns()).dump()};
  if (path == "/api/config") return {200, kJson, config_json_};
  return {404, kJson, R"({"detail":"Not Found"})"};
}

}  // namespace aiperf::controller::api
