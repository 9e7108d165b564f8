#include "api_json.h"
#include "util/version.h"

#include <algorithm>

namespace aiperf::controller::api {
namespace {

using nlohmann::ordered_json;

using util::kVersion;
constexpr int64_t kStaleNs = 10'000'000'000;

ordered_json phase_json(const ui::PhaseState& p, const char* name, uint64_t success, uint64_t errors,
                        int64_t now_wall_ns) {
  ordered_json j;
  j["phase"] = name;
  j["start_ns"] = p.start_wall_ns;
  if (p.complete) j["end_ns"] = p.end_wall_ns;
  j["total_expected_requests"] = p.total_expected ? ordered_json(p.total_expected) : ordered_json(nullptr);
  j["requests_sent"] = p.sent;
  j["requests_completed"] = p.completed;
  j["requests_cancelled"] = p.cancelled;
  j["in_flight_requests"] = p.in_flight();
  j["success_records"] = success;
  j["error_records"] = errors;
  j["is_sending_complete"] = p.sending_complete;
  j["is_requests_complete"] = p.complete;
  j["was_cancelled"] = p.was_cancelled;
  const int64_t end = p.complete && p.end_wall_ns ? p.end_wall_ns : now_wall_ns;
  const double elapsed = p.start_wall_ns && end > p.start_wall_ns ? static_cast<double>(end - p.start_wall_ns) / 1e9 : 0;
  const double rate = elapsed > 0 ? static_cast<double>(p.completed) / elapsed : 0;
  j["requests_per_second"] = elapsed > 0 ? ordered_json(rate) : ordered_json(nullptr);
  if (p.total_expected) {
    j["requests_progress_percent"] = 100.0 * static_cast<double>(std::min(p.completed, p.total_expected)) /
                                     static_cast<double>(p.total_expected);
    const uint64_t left = p.total_expected - std::min(p.completed, p.total_expected);
    j["requests_eta_sec"] = p.complete ? ordered_json(0.0)
                            : rate > 0 ? ordered_json(static_cast<double>(left) / rate)
                                       : ordered_json(nullptr);
  } else {
    j["requests_progress_percent"] = nullptr;
    j["requests_eta_sec"] = nullptr;
  }
  return j;
}

}  // namespace

const char* system_state(const std::string& stage) {
  if (stage == "registering") return "initializing";
  if (stage == "configuring") return "configuring";
  if (stage == "waiting_remote") return "ready";
  if (stage == "running") return "profiling";
  if (stage == "collecting") return "processing";
  return "stopping";
}

ordered_json metric_json(const proto::MetricResult& m) {
  ordered_json j;
  j["header"] = m.header();
  j["unit"] = m.unit();
  auto stat = [&](const char* name, bool has, double v) {
    if (has) j[name] = v;
  };
  stat("avg", m.has_avg(), m.avg());
  stat("min", m.has_min(), m.min());
  stat("max", m.has_max(), m.max());
  stat("p1", m.has_p1(), m.p1());
  stat("p5", m.has_p5(), m.p5());
  stat("p10", m.has_p10(), m.p10());
  stat("p25", m.has_p25(), m.p25());
  stat("p50", m.has_p50(), m.p50());
  stat("p75", m.has_p75(), m.p75());
  stat("p90", m.has_p90(), m.p90());
  stat("p95", m.has_p95(), m.p95());
  stat("p99", m.has_p99(), m.p99());
  stat("std", m.has_std(), m.std());
  stat("sum", m.has_sum(), m.sum());
  j["count"] = m.count();
  return j;
}

ordered_json progress_json(const ui::RunState& state, int64_t now_wall_ns, int64_t now_steady_ns) {
  ordered_json j;
  ordered_json phases = ordered_json::object();
  if (state.warmup.started) phases["warmup"] = phase_json(state.warmup, "warmup", 0, 0, now_wall_ns);
  if (state.profiling.started)
    phases["profiling"] =
        phase_json(state.profiling, "profiling", state.success_records, state.error_records, now_wall_ns);
  j["phases"] = std::move(phases);
  j["system_state"] = system_state(state.stage);
  j["results_exported"] = false;  // the server stops before the controller writes the files
  uint64_t workers = 0, healthy = 0;
  for (const auto& [id, s] : state.services) {
    if (s.type != "worker") continue;
    ++workers;
    if (now_steady_ns - s.last_seen_steady_ns <= kStaleNs && s.state != proto::STATE_FAILED) ++healthy;
  }
  j["workers"] = {{"total", workers}, {"healthy", healthy}, {"stale", workers - healthy}};
  return j;
}

ordered_json metrics_json(const ui::RunState& state, const config::RunConfig& config) {
  ordered_json j;
  j["aiperf_version"] = kVersion;
  j["benchmark_id"] = config.benchmark_id.empty() ? ordered_json(nullptr) : ordered_json(config.benchmark_id);
  std::vector<std::string> models = config.endpoint.model_names;
  std::sort(models.begin(), models.end());
  std::string joined;
  for (const auto& m : models) joined += (joined.empty() ? "" : ",") + m;
  j["model"] = joined;
  j["endpoint_type"] = config.endpoint.type;
  j["streaming"] = config.endpoint.streaming;
  if (config.loadgen.concurrency) j["concurrency"] = *config.loadgen.concurrency;
  if (config.loadgen.request_rate) j["request_rate"] = *config.loadgen.request_rate;
  ordered_json metrics = ordered_json::object();
  if (const proto::ProfileResults* snapshot = state.metrics()) {
    for (const auto& m : snapshot->records()) metrics[m.tag()] = metric_json(m);
  }
  j["metrics"] = std::move(metrics);
  return j;
}

ordered_json results_json(const ui::RunState& state) {
  ordered_json j;
  if (!state.results) {
    j["status"] = "running";
    j["results"] = nullptr;
    return j;
  }
  const proto::ProfileResults& r = *state.results;
  j["status"] = r.was_cancelled() ? "cancelled" : "complete";
  ordered_json records = ordered_json::array();
  for (const auto& m : r.records()) {
    ordered_json one;
    one["tag"] = m.tag();
    one.update(metric_json(m));
    records.push_back(std::move(one));
  }
  ordered_json errors = ordered_json::array();
  for (const auto& e : r.error_summary()) {
    ordered_json details;
    if (e.error_details().has_code()) details["code"] = e.error_details().code();
    details["type"] = e.error_details().type();
    details["message"] = e.error_details().message();
    errors.push_back({{"error_details", std::move(details)}, {"count", e.count()}});
  }
  j["results"] = {{"records", std::move(records)}, {"completed", r.completed()}, {"total_expected", r.total_expected()},
                  {"start_ns", r.start_ns()},      {"end_ns", r.end_ns()},       {"was_cancelled", r.was_cancelled()},
                  {"error_summary", std::move(errors)}};
  return j;
}

ordered_json workers_json(const ui::RunState& state, int64_t now_steady_ns) {
  ordered_json workers = ordered_json::object();
  for (const auto& [id, s] : state.services) {
    if (s.type != "worker") continue;
    const int64_t age = now_steady_ns - s.last_seen_steady_ns;
    workers[id] = {{"pid", s.pid},
                   {"hostname", s.host},
                   {"remote", s.remote},
                   {"status", age > kStaleNs ? "stale" : s.state == proto::STATE_FAILED ? "failed" : "healthy"},
                   {"last_seen_sec_ago", static_cast<double>(age) / 1e9}};
  }
  return {{"workers", std::move(workers)}};
}

}  // namespace aiperf::controller::api
