// aiperf: `profile` runs a benchmark (this process becomes the controller); `service` and
// `worker` run one service (children spawned by the controller, or workers on other hosts).
#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "util/version.h"
#include "control/readiness_probe.h"
#include "controller.h"
#include "log/log.h"
#include "mesh_keys_command.h"
#include "multi_run.h"
#include "options.h"
#include "process_export_command.h"
#include "service_command.h"
#include "tokenize_command.h"
#include "validators.h"

namespace {
using aiperf::util::kVersion;

void add_service_args(CLI::App& cmd, aiperf::cli::ServiceArgs& a) {
  cmd.add_option("--controller", a.controller, "Controller address: tcp://HOST:PORT or ipc://DIR")->required();
  cmd.add_option("--service-id", a.service_id, "Service id (default: <type>_<random>)");
  cmd.add_option("--log-file", a.log_file, "Append logs to this file");
  cmd.add_option("--log-level", a.log_level, "Log level");
  cmd.add_option("--mesh-keys", a.mesh_keys, "CURVE key folder of the controller's mesh (docs/mesh.md)");
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"aiperf: benchmark LLM inference servers (AIPerf-compatible, native)", "aiperf"};
  app.set_version_flag("--version", std::string("aiperf ") + kVersion);
  app.require_subcommand(1);

  aiperf::cli::ProfileOptions profile;
  CLI::App* profile_cmd = app.add_subcommand("profile", "Run a benchmark");
  aiperf::cli::add_endpoint_options(*profile_cmd, profile);
  aiperf::cli::add_input_options(*profile_cmd, profile);
  aiperf::cli::add_output_options(*profile_cmd, profile);
  aiperf::cli::add_load_options(*profile_cmd, profile);
  aiperf::cli::add_service_options(*profile_cmd, profile);
  aiperf::cli::add_connection_options(*profile_cmd, profile);
  aiperf::cli::add_telemetry_options(*profile_cmd, profile);
  aiperf::cli::add_multi_run_options(*profile_cmd, profile);
  aiperf::cli::add_control_options(*profile_cmd, profile);

  aiperf::cli::ServiceArgs service;
  CLI::App* service_cmd = app.add_subcommand("service", "Run one service (used by the controller)");
  service_cmd->add_option("--type", service.type, "Service type")->required();
  service_cmd->add_option("--index", service.index, "Replica number among its type (ours; record processors)");
  add_service_args(*service_cmd, service);

  aiperf::cli::ServiceArgs worker;
  worker.type = "worker";
  worker.joined = true;
  CLI::App* worker_cmd = app.add_subcommand("worker", "Join a run as a worker (any host)");
  add_service_args(*worker_cmd, worker);

  // One trial of a multi-run benchmark, started by `profile --num-profile-runs` (hidden).
  std::string trial_config;
  CLI::App* trial_cmd = app.add_subcommand("profile-trial", "")->group("");
  trial_cmd->add_option("config", trial_config, "The trial's run_config.json")->required();

  std::function<int()> run_tokenize = aiperf::cli::add_tokenize_command(app);
  std::function<int()> run_mesh_keys = aiperf::cli::add_mesh_keys_command(app);
  std::function<int()> run_process_export = aiperf::cli::add_process_export_command(app, kVersion);

  app.failure_message(aiperf::cli::failure_message);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (*service_cmd) return aiperf::cli::run_service(service);
  if (*app.get_subcommand("tokenize")) return run_tokenize();
  if (*app.get_subcommand("mesh-keys")) return run_mesh_keys();
  if (*app.get_subcommand("process-export-files")) return run_process_export();
  if (*worker_cmd) return aiperf::cli::run_service(worker);
  if (*trial_cmd) {
    const int rc = aiperf::cli::run_trial(trial_config);
    std::cout.flush();
    _exit(rc);  // proxy threads block in zmq::proxy forever; skip static destructors
  }

  std::vector<std::string> args(argv, argv + argc);
  aiperf::config::RunConfig config;
  try {
    config = aiperf::cli::build_run_config(profile, args);
  } catch (const aiperf::control::ReadinessTimeout& e) {
    std::cerr << "Error: " << e.what() << "\n";  // the server, not the options: exit 1 as the reference
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 2;
  }
  if (profile.dry_run) {
    // Ours: the options are valid; say what the run would be and stop before anything starts.
    std::cout << "aiperf profile --dry-run: options valid (nothing started, nothing written)\n"
              << "  endpoint " << config.endpoint.type << (config.endpoint.streaming ? " (streaming)" : "")
              << ", stimulus " << config.stimulus() << ", artifacts " << config.output.artifact_dir << "\n";
    if (profile.multi_run.enabled())
      std::cout << "  up to " << profile.multi_run.num_runs << " trials in profile_runs/run_NNNN, aggregated in aggregate/\n";
    for (const std::string& note : profile.dry_run_notes) std::cout << "  note: " << note << "\n";
    return 0;
  }
  aiperf::log::Level level = aiperf::log::Level::kInfo;
  aiperf::log::parse_level(config.service.log_level, level);
  aiperf::log::init("system_controller", config.output.artifact_dir + "/logs/aiperf.log", level);
  if (profile.multi_run.enabled()) {
    // Each trial makes its own IPC directory; the one made for a single run is not needed.
    if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(config.service.zmq_ipc_path);
    config.service.zmq_ipc_path.clear();
    return aiperf::cli::run_multi(config, profile.multi_run);
  }
  const int rc = aiperf::controller::run_profile(config);
  if (!config.service.zmq_ipc_path.empty() && config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) {
    std::error_code ec;
    std::filesystem::remove_all(config.service.zmq_ipc_path, ec);
  }
  std::cout.flush();
  _exit(rc);  // proxy threads block in zmq::proxy forever; skip static destructors
}
