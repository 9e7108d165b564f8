// Workers, ZMQ and service groups (spec §2.1), plus --fail-on-error-rate (ours).
#include "options.h"

namespace aiperf::cli {

void add_service_options(CLI::App& app, ProfileOptions& o) {
  auto& s = o.config.service;
  add_optional(app, "--workers-max,--max-workers", o.workers_max, "Local worker processes (0 = only remote)")->group("Workers");
  app.add_option("--workers-remote", s.workers_remote, "Wait for this many remote workers before starting")->group("Workers");
  add_optional(app, "--record-processors,--record-processor-service-count", o.record_processors, "Record processors")
      ->check(CLI::PositiveNumber)->group("Service");
  app.add_option("--zmq-host", s.zmq_host, "Use TCP on this host (default: IPC)")->group("ZMQ Communication");
  app.add_option("--zmq-ipc-path", s.zmq_ipc_path, "IPC directory")->group("ZMQ Communication");
  app.add_option("--zmq-base-port", s.zmq_base_port, "First of 7 TCP ports (with --zmq-host)")->group("ZMQ Communication");
  app.add_option("--log-level", s.log_level, "TRACE, DEBUG, INFO, NOTICE, WARNING, SUCCESS, ERROR, CRITICAL")->group("Service");
  app.add_flag("-v,--verbose", o.verbosity, "DEBUG logging (-vv: TRACE)")->group("Service");
  app.add_flag("--extra-verbose", o.extra_verbose, "TRACE logging")->group("Service");
  app.add_option("--ui-type,--ui", s.ui_type, "dashboard, simple or none")
      ->check(CLI::IsMember({"dashboard", "simple", "none"}))->group("Service");
  add_optional(app, "--fail-on-error-rate", s.fail_on_error_rate, "Exit 1 when more than this % of requests fail")
      ->check(CLI::Range(0.0, 100.0))->group("Service");
}

}  // namespace aiperf::cli
