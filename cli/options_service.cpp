// Workers, ZMQ and service groups (spec §2.1), plus --fail-on-error-rate (ours).
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "log/log.h"
#include "options.h"
#include "validators.h"

namespace aiperf::cli {

void add_service_options(CLI::App& app, ProfileOptions& o) {
  auto& s = o.config.service;
  add_optional(app, "--workers-max,--max-workers", o.service.workers_max, "Local worker processes (0 = only remote)")->group("Workers");
  app.add_option("--workers-remote", s.workers_remote, "Wait for this many remote workers before starting")->group("Workers");
  add_optional(app, "--record-processors,--record-processor-service-count", o.service.record_processors, "Record processors")
      ->check(kPositive)->group("Service");
  app.add_option("--zmq-host", s.zmq_host, "Use TCP on this host (default: IPC)")->group("ZMQ Communication");
  app.add_option("--zmq-ipc-path", s.zmq_ipc_path, "IPC directory")->group("ZMQ Communication");
  app.add_option("--zmq-base-port", s.zmq_base_port, "First of 7 TCP ports (with --zmq-host)")->group("ZMQ Communication");
  app.add_option("--mesh-keys", s.mesh_keys,
                 "CURVE keys authenticating the tcp mesh: controller.{pub,secret}, worker.{pub,secret}, "
                 "authorized/*.pub; created on first use (docs/mesh.md)")
      ->group("ZMQ Communication");
  app.add_option("--log-level", s.log_level, "TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR, CRITICAL")->group("Service");
  app.add_flag("-v,--verbose", o.service.verbosity, "DEBUG logging (-vv: TRACE)")->group("Service");
  app.add_flag("--extra-verbose", o.service.extra_verbose, "TRACE logging")->group("Service");
  add_enum_option(app, "--ui-type,--ui", o.service.ui_type,
                  "dashboard, simple or none (default: dashboard on a terminal, simple with -v)")
      ->transform(choice({"dashboard", "simple", "none"}))
      ->group("Service");
  add_optional(app, "--api-port", s.api_port, "Serve live /metrics (Prometheus) and /api/* JSON on this port during the run")
      ->check(CLI::Range(1, 65535))->envname("AIPERF_API_SERVER_PORT")->group("Service");
  app.add_option("--api-host", s.api_host, "Address the --api-port server binds (default 127.0.0.1)")
      ->envname("AIPERF_API_SERVER_HOST")->group("Service");
  add_optional(app, "--fail-on-error-rate", s.fail_on_error_rate, "Exit 1 when more than this % of requests fail")
      ->check(kPercent)->group("Service");
}

void finalize_service_options(ProfileOptions& o) {
  auto& s = o.config.service;
  // AIPerf: max(1, min(int(cpus * 0.75) - 1, 32)), capped by --concurrency. Ours: at least two
  // where there are two CPUs, since a worker is one thread (two single-thread workers sent
  // 9 % more requests/s at concurrency 64 on 2 CPUs than one; docs/performance.md).
  const int cpus = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int aiperf_workers = std::max(1, std::min(static_cast<int>(cpus * 0.75) - 1, 32));
  uint32_t workers = static_cast<uint32_t>(std::max(aiperf_workers, std::min(cpus, 2)));
  if (o.service.workers_max) workers = *o.service.workers_max;
  if (o.config.loadgen.concurrency && workers > *o.config.loadgen.concurrency) workers = *o.config.loadgen.concurrency;
  // Ours: enough workers to hold the whole concurrency under the open-file limit.
  if (!o.service.workers_max && workers < o.service.workers_min) {
    AIPERF_LOG(kInfo) << "--concurrency needs " << o.service.workers_min << " worker processes (open-file limit)";
    workers = o.service.workers_min;
  }
  s.workers = workers;
  if (workers == 0 && s.workers_remote == 0)
    throw OptionError("--workers-max 0 needs --workers-remote K (workers started with `aiperf worker`)");
  s.record_processors = o.service.record_processors.value_or(std::max(1u, workers / 4));
  if (!s.zmq_host.empty() && !s.zmq_ipc_path.empty())
    throw OptionError("--zmq-host and --zmq-ipc-path cannot both be set");
  if (s.workers_remote > 0 && s.zmq_host.empty())
    throw OptionError("--workers-remote needs --zmq-host (remote workers connect over TCP)");
  // AIPerf: dashboard on a terminal, none otherwise; -v/-vv switch the default to simple so
  // the log lines stay readable.
  if (o.service.ui_type) s.ui_type = *o.service.ui_type;
  else if (o.service.extra_verbose || o.service.verbosity > 0) s.ui_type = config::UiType::kSimple;
  else s.ui_type = ::isatty(STDOUT_FILENO) ? config::UiType::kDashboard : config::UiType::kNone;
  if (o.service.extra_verbose || o.service.verbosity >= 2) s.log_level = "TRACE";
  else if (o.service.verbosity == 1) s.log_level = "DEBUG";
  log::Level level;
  if (!log::parse_level(s.log_level, level))
    throw OptionError("--log-level: unknown level '" + s.log_level + "'");
}

}  // namespace aiperf::cli
