// aiperf: `profile` runs a benchmark (this process becomes the controller); `service` and
// `worker` run one service (children spawned by the controller, or workers on other hosts).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "util/version.h"
#include "control/readiness_probe.h"
#include "config_command.h"
#include "config_file.h"
#include "controller.h"
#include "genai_perf_command.h"
#include "log/log.h"
#include "mesh_keys_command.h"
#include "analyze_command.h"
#include "speed_bench_report_command.h"
#include "variant_sweep.h"
#include "validate_command.h"
#include "chat_command.h"
#include "multi_run.h"
#include "non_text_options.h"
#include "options.h"
#include "plot_command.h"
#include "process_export_command.h"
#include "service_command.h"
#include "search_run.h"
#include "sweep.h"
#include "sweep_plan.h"
#include "tokenize_command.h"
#include "time/clock.h"
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
// Every option group of `aiperf profile` (also used to parse each sweep point's command line).
void add_profile_groups(CLI::App& cmd, aiperf::cli::ProfileOptions& profile) {
  profile.app = &cmd;
  aiperf::cli::add_endpoint_options(cmd, profile);
  aiperf::cli::add_input_options(cmd, profile);
  aiperf::cli::add_output_options(cmd, profile);
  aiperf::cli::add_load_options(cmd, profile);
  aiperf::cli::add_service_options(cmd, profile);
  aiperf::cli::add_connection_options(cmd, profile);
  aiperf::cli::add_telemetry_options(cmd, profile);
  aiperf::cli::add_multi_run_options(cmd, profile);
  aiperf::cli::add_control_options(cmd, profile);
  aiperf::cli::add_accuracy_options(cmd, profile);
  aiperf::cli::watch_non_text_options(cmd, profile);
}

// One sweep point's config: its command line (the lists replaced by the point's values)
// parsed and validated as a run of its own would be.
// Every point resolves to the sweep's artifact directory (no folder of its own is created here).
aiperf::config::RunConfig point_config(std::vector<std::string> args, const aiperf::config::RunConfig& base) {
  const std::string& artifact_dir = base.output.artifact_dir;
  // The readiness probe ran once for the whole sweep (the base config); the points skip it.
  const std::vector<std::string> dropped{"--artifact-dir", "--output-artifact-dir", "--wait-for-model-timeout",
                                         "--wait-for-model-mode", "--wait-for-model-interval"};
  for (size_t i = 0; i < args.size();) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (std::find(dropped.begin(), dropped.end(), name) == dropped.end()) {
      ++i;
    } else {
      const size_t n = a.find('=') == std::string::npos ? 2 : 1;
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(std::min(i + n, args.size())));
    }
  }
  args.insert(args.end(), {"--artifact-dir", artifact_dir});
  CLI::App app{"aiperf", "aiperf"};
  aiperf::cli::ProfileOptions profile;
  CLI::App* cmd = app.add_subcommand("profile", "");
  add_profile_groups(*cmd, profile);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    throw aiperf::cli::OptionError(e.what());
  }
  aiperf::config::RunConfig c = aiperf::cli::build_run_config(profile, args);
  c.endpoint.wait_for_model_timeout = base.endpoint.wait_for_model_timeout;
  c.endpoint.wait_for_model_mode = base.endpoint.wait_for_model_mode;
  c.endpoint.wait_for_model_interval = base.endpoint.wait_for_model_interval;
  // Each trial makes its own IPC directory.
  if (c.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(c.service.zmq_ipc_path);
  c.service.zmq_ipc_path.clear();
  return c;
}
// `aiperf config validate|expand`: the file's words checked as `aiperf profile ... --dry-run`
// checks them, every sweep point included.
void check_profile_args(const std::vector<std::string>& words) {
  std::vector<std::string> argv{"aiperf", "profile"};
  argv.insert(argv.end(), words.begin(), words.end());
  argv.push_back("--dry-run");
  const aiperf::cli::sweep::Extracted lists = aiperf::cli::sweep::extract_lists(argv);
  CLI::App app{"aiperf", "aiperf"};
  aiperf::cli::ProfileOptions profile;
  add_profile_groups(*app.add_subcommand("profile", ""), profile);
  std::vector<const char*> cargv;
  for (const std::string& a : lists.args) cargv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(cargv.size()), cargv.data());
  } catch (const CLI::ParseError& e) {
    throw aiperf::cli::OptionError(e.what());
  }
  const aiperf::config::RunConfig base = aiperf::cli::build_run_config(profile, lists.args);
  if (lists.parameters.empty()) return;
  for (const auto& point : aiperf::cli::sweep::expand(lists.parameters, profile.multi_run.sweep_type)) {
    try {
      point_config(aiperf::cli::sweep::point_args(lists, point), base);
    } catch (const aiperf::cli::OptionError& e) {
      throw aiperf::cli::OptionError(std::string(e.what()) + " (sweep point " + point.label + ")");
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  // `genai-perf ...` (this binary under that name) and `aiperf genai-perf ...`: GenAI-Perf's CLI.
  if (const int rc = aiperf::cli::genai_perf::maybe_run(argc, argv, kVersion); rc >= 0) return rc;
  CLI::App app{"aiperf: benchmark LLM inference servers (AIPerf-compatible, native)", "aiperf"};
  app.set_version_flag("--version", std::string("aiperf ") + kVersion);
  app.require_subcommand(1);

  aiperf::cli::ProfileOptions profile;
  CLI::App* profile_cmd = app.add_subcommand("profile", "Run a benchmark");
  add_profile_groups(*profile_cmd, profile);
  std::string config_file_name;  // taken off the command line before parsing (cli/config_file.h)
  profile_cmd->add_option("-f,--config", config_file_name,
                          "YAML config file (AIPerf 0.13 schema); options on the command line win");

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

  // Listed for --help only: maybe_run above takes `aiperf genai-perf ...` before parsing.
  app.add_subcommand("genai-perf", "GenAI-Perf 0.0.16's command line: genai-perf profile|analyze|config|create-template ... (docs/user-guide.md)");
  std::function<int()> run_tokenize = aiperf::cli::add_tokenize_command(app);
  std::function<int()> run_mesh_keys = aiperf::cli::add_mesh_keys_command(app);
  std::function<int()> run_process_export = aiperf::cli::add_process_export_command(app, kVersion);
  std::function<int()> run_config = aiperf::cli::add_config_command(app, check_profile_args);
  std::function<int()> run_plot = aiperf::cli::add_plot_command(app);
  std::function<int()> run_analyze = aiperf::cli::add_analyze_commands(app);
  std::function<int()> run_validate = aiperf::cli::add_validate_command(app);
  std::function<int()> run_chat = aiperf::cli::add_chat_command(app);
  std::function<int()> run_speed_bench_report = aiperf::cli::add_speed_bench_report_command(app);

  app.failure_message(aiperf::cli::failure_message);
  // A comma list on a sweepable option makes a sweep: parse the command line with each list's
  // first value (as AIPerf validates its base config), the points are parsed one by one later.
  aiperf::cli::sweep::Extracted sweep_lists;
  std::vector<const char*> parse_argv(argv, argv + argc);
  // --config FILE: the file's options go before the command line's (which win over them).
  std::vector<std::string> cmdline(argv, argv + argc);
  std::optional<aiperf::cli::config_file::Translation> file_config;
  const auto explain = [&file_config](const std::string& message) {
    return file_config ? aiperf::cli::config_file::annotate(message, *file_config) : message;
  };
  if (argc > 1 && cmdline[1] == "profile") {
    namespace cf = aiperf::cli::config_file;
    try {
      std::vector<std::string> rest(cmdline.begin() + 2, cmdline.end());
      if (const auto file = cf::take_config_option(rest)) {
        file_config = cf::translate_file(*file, cf::process_env());
        for (const std::string& w : file_config->warnings) std::cerr << "Warning: " << w << "\n";
        rest = cf::merge(*file_config, rest, *profile_cmd);
        cmdline.resize(2);
        cmdline.insert(cmdline.end(), rest.begin(), rest.end());
      }
    } catch (const cf::ConfigFileError& e) {
      std::cerr << "Error: " << e.what() << "\n";
      return 2;
    }
  }
  if (argc > 1 && cmdline[1] == "profile") {
    try {
      sweep_lists = aiperf::cli::sweep::extract_lists(
          cmdline, file_config ? aiperf::cli::config_file::swept_options(*file_config) : std::vector<std::string>{});
      if (file_config) aiperf::cli::config_file::retype_sweep(*file_config, sweep_lists);
    } catch (const aiperf::cli::sweep::SweepError& e) {
      std::cerr << "Error: " << e.what() << "\n";
      return 2;
    }
    parse_argv.clear();
    for (const std::string& a : sweep_lists.args) parse_argv.push_back(a.c_str());
  }
  try {
    app.parse(static_cast<int>(parse_argv.size()), parse_argv.data());
  } catch (const CLI::ParseError& e) {
    if (file_config && e.get_exit_code() != 0) {
      std::cerr << "Error: " << explain(e.what()) << "\n";
      return 2;
    }
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (*service_cmd) return aiperf::cli::run_service(service);
  if (*app.get_subcommand("tokenize")) return run_tokenize();
  if (*app.get_subcommand("mesh-keys")) return run_mesh_keys();
  if (*app.get_subcommand("process-export-files")) return run_process_export();
  if (*app.get_subcommand("config")) return run_config();
  if (*app.get_subcommand("plot")) return run_plot();
  if (const int rc = run_analyze(); rc >= 0) return rc;
  if (*app.get_subcommand("validate")) return run_validate();
  if (*app.get_subcommand("chat")) return run_chat();
  if (*app.get_subcommand("speed-bench-report")) return run_speed_bench_report();
  if (*worker_cmd) return aiperf::cli::run_service(worker);
  if (*trial_cmd) {
    const int rc = aiperf::cli::run_trial(trial_config);
    std::cout.flush();
    _exit(rc);  // proxy threads block in zmq::proxy forever; skip static destructors
  }

  const std::vector<std::string>& args = cmdline;
  aiperf::config::RunConfig config;
  std::vector<aiperf::cli::sweep::Point> sweep_points;
  std::vector<aiperf::config::RunConfig> sweep_configs;
  try {
    if (!sweep_lists.parameters.empty())
      sweep_points = aiperf::cli::sweep::expand(sweep_lists.parameters, profile.multi_run.sweep_type);
    // A scenario locks one configuration: AIPerf refuses a sweep of it (a warning with --unsafe-override).
    if (!sweep_lists.parameters.empty() && profile.scenario.name) {
      const std::string message = "scenario '" + *profile.scenario.name +
                                  "' does not support parameter sweeps; a scenario locks one fixed configuration, so "
                                  "a sweep would multiply it into diverging runs. Pass a single value for each swept "
                                  "flag (e.g. one --concurrency value, not a list) or drop the sweep / --scenario.";
      if (!profile.scenario.unsafe_override) throw aiperf::cli::OptionError("--scenario: " + message);
      AIPERF_LOG(kWarning) << "Scenario violation (override active): " << message;
    }
    // The command echoed on the console is the one typed (`-f FILE`, not what the file set).
    config = aiperf::cli::build_run_config(profile, std::vector<std::string>(argv, argv + argc));
  } catch (const aiperf::control::ReadinessTimeout& e) {
    std::cerr << "Error: " << e.what() << "\n";  // the server, not the options: exit 1 as the reference
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "Error: " << explain(e.what()) << "\n";
    return 2;
  }
  try {
    // A grid or scenario recipe (concurrency-ramp, pareto-sweep, ...) is a sweep of the values it chose.
    if (profile.search.grid) {
      const auto& g = *profile.search.grid;
      auto recipe = aiperf::cli::search::recipe_sweep(g, sweep_lists, profile.multi_run.sweep_type);
      sweep_lists = std::move(recipe.lists);
      profile.multi_run.sweep_type = recipe.sweep_type;
      sweep_points = aiperf::cli::sweep::expand(sweep_lists.parameters, profile.multi_run.sweep_type);
      aiperf::cli::search::label_recipe_points(g, sweep_points);
      // The recipe's --auto-plot default, unless the command line says.
      bool plot_flag = false;
      for (const auto& a : args) plot_flag = plot_flag || a.rfind("--auto-plot", 0) == 0 || a.rfind("--no-auto-plot", 0) == 0;
      if (!plot_flag && g.auto_plot_default) profile.output.auto_plot = true;
    }
    // --variant: a scenario sweep, one point per variant (variant_sweep.h).
    if (!profile.multi_run.variants.empty()) {
      if (!sweep_points.empty()) {
        std::vector<std::string> lists;
        for (const auto& p : sweep_lists.parameters) lists.push_back("'" + p.option.substr(2) + "'");
        std::string joined;
        for (const std::string& l : lists) joined += (joined.empty() ? "" : ", ") + l;
        throw aiperf::cli::OptionError("--variant is mutually exclusive with magic-list flags [" + joined +
                                       "] (e.g. --concurrency 1,2,4). Drop one: magic-lists declare a Cartesian "
                                       "sweep, --variant declares hand-picked scenarios.");
      }
      nlohmann::json base_ic = nlohmann::json::parse(aiperf::config::input_config_json(config).dump());
      base_ic["artifacts"].erase("dir");
      const auto& variants = profile.multi_run.variants;
      for (size_t i = 0; i < variants.size(); ++i) {
        const aiperf::cli::Variant v = aiperf::cli::parse_variant(variants[i]);
        aiperf::cli::sweep::Point p;
        p.index = i;
        p.label = v.name.value_or("v" + std::to_string(i));
        p.dir_name = p.label;
        for (const auto& q : sweep_points)
          if (q.label == p.label)
            throw aiperf::cli::OptionError("scenario sweep runs must have unique names; duplicates: ['" + p.label +
                                           "'].");
        aiperf::config::RunConfig pc;
        try {
          pc =
              point_config(aiperf::cli::variants::variant_args(sweep_lists.args, v, variants[i], *profile_cmd), config);
        } catch (const aiperf::cli::OptionError& e) {
          throw aiperf::cli::OptionError(std::string(e.what()) + " (variant " + p.label + ")");
        }
        nlohmann::json ic = nlohmann::json::parse(aiperf::config::input_config_json(pc).dump());
        ic["artifacts"].erase("dir");
        nlohmann::json diff = aiperf::cli::variants::benchmark_diff(base_ic, ic);
        aiperf::cli::variants::integers_as_typed(diff, v);
        p.values = {{"benchmark", diff.dump()}};
        sweep_points.push_back(std::move(p));
        sweep_configs.push_back(std::move(pc));
      }
    }
    // An adaptive search (--search-* / --search-recipe) chooses its points itself.
    if (profile.search.spec) {
      if (!sweep_points.empty())
        throw aiperf::cli::OptionError("--search-space: an adaptive search cannot be combined with a parameter sweep (" +
                                       sweep_lists.parameters.front().option +
                                       " with a list); give that option a single value.");
      if (config.service.ui_type == aiperf::config::UiType::kDashboard)
        throw aiperf::cli::OptionError(
            "Dashboard UI is not supported with sweep/multi-run mode. Please use '--ui simple' or '--ui none' instead.");
      // The first point is validated now, so a value the search would set cannot fail later.
      const auto& dim = profile.search.spec->space.front();
      point_config(aiperf::cli::search_point_args(*profile.search.spec, sweep_lists.args,
                                                  std::to_string(static_cast<long long>(dim.lo))),
                   config);
    }
    if (!sweep_points.empty()) {
      if (config.stimulus() == "fixed_schedule" && !sweep_lists.parameters.empty()) {
        const auto& p = sweep_lists.parameters.front();
        std::string joined;
        for (const auto& t : p.texts) joined += (joined.empty() ? "" : ",") + t;
        throw aiperf::cli::OptionError(
            "Parameter sweeps (e.g., " + p.option + " " + joined +
            ") cannot be used with --fixed-schedule mode (including the auto-promotion of trace datasets with "
            "per-record timestamps). Use a single parameter value, or pass --no-fixed-schedule to keep your "
            "rate/concurrency mode and ignore the trace timestamps.");
      }
      if (config.service.ui_type == aiperf::config::UiType::kDashboard) {
        // The reference's two messages: an explicit --ui dashboard, and the terminal's default.
        bool explicit_ui = false;
        for (const auto& a : args) explicit_ui = explicit_ui || a.rfind("--ui", 0) == 0;
        throw aiperf::cli::OptionError(
            explicit_ui ? "--ui-type: Dashboard UI is incompatible with parameter sweeps; sweep results would overwrite "
                          "each other in the live console. Use --ui simple or --ui none with --concurrency <list> / any "
                          "sweep configuration."
                        : "Dashboard UI is not supported with sweep/multi-run mode. Please use '--ui simple' or '--ui "
                          "none' instead.");
      }
      for (const auto& point : sweep_points) {
        if (sweep_configs.size() == sweep_points.size()) break;  // variants: built above
        try {
          sweep_configs.push_back(
              point_config(aiperf::cli::sweep::point_args(sweep_lists, point), config));
        } catch (const aiperf::cli::OptionError& e) {
          throw aiperf::cli::OptionError(std::string(e.what()) + " (sweep point " + point.label + ")");
        }
      }
    }
  } catch (const std::exception& e) {
    // A bad point: the base config made <artifact-dir>/logs; leave nothing behind.
    std::error_code ec;
    std::filesystem::remove(config.output.artifact_dir + "/logs", ec);  // only if empty
    std::filesystem::remove(config.output.artifact_dir, ec);
    if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(config.service.zmq_ipc_path, ec);
    const bool timeout = dynamic_cast<const aiperf::control::ReadinessTimeout*>(&e) != nullptr;
    std::cerr << "Error: " << explain(e.what()) << "\n";
    return timeout ? 1 : 2;
  }
  if (profile.dry_run) {
    // Ours: the options are valid; say what the run would be and stop before anything starts.
    std::cout << "aiperf profile --dry-run: options valid (nothing started, nothing written)\n"
              << "  endpoint " << config.endpoint.type << (config.endpoint.streaming ? " (streaming)" : "")
              << ", stimulus " << config.stimulus() << ", artifacts " << config.output.artifact_dir << "\n";
    if (profile.multi_run.enabled())
      std::cout << "  up to " << profile.multi_run.num_runs << " trials in profile_runs/run_NNNN, aggregated in aggregate/\n";
    if (!sweep_points.empty()) {
      std::cout << "  sweep (" << aiperf::config::to_string(profile.multi_run.sweep_type) << ") of "
                << sweep_points.size() << " points:\n";
      for (const auto& p : sweep_points) std::cout << "    " << p.dir_name << "  (" << p.label << ")\n";
    }
    if (profile.search.spec) {
      const auto& sp = *profile.search.spec;
      std::cout << "  search (" << (aiperf::cli::search::multi_tier(sp) ? std::string("multi_tier") : sp.planner) << ") over " << sp.space.front().path << ", at most " << sp.max_iterations
                << " iterations, in search_iter_NNNN/\n";
    }
    for (const std::string& note : profile.dry_run_notes) std::cout << "  note: " << note << "\n";
    return 0;
  }
  aiperf::log::Level level = aiperf::log::Level::kInfo;
  aiperf::log::parse_level(config.service.log_level, level);
  aiperf::log::init("system_controller", config.output.artifact_dir + "/logs/aiperf.log", level);
  // Ours: the remote exports follow single runs only (not sweeps, trials or searches) for now.
  if ((profile.search.spec || !sweep_points.empty() || profile.multi_run.enabled()) &&
      (!profile.remote_export.otel_endpoint.empty() || profile.remote_export.mlflow_tracking_uri))
    AIPERF_LOG(kWarning) << "--otel-url / --mlflow-tracking-uri: not sent for sweeps, multi-run trials or searches "
                            "(single runs only in this build)";
  if (profile.search.spec) {
    if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(config.service.zmq_ipc_path);
    int rc = aiperf::cli::run_search(*profile.search.spec, sweep_lists.args,
                                     [&config](const std::vector<std::string>& a) { return point_config(a, config); },
                                     config.output.artifact_dir, profile.multi_run);
    if (rc == 0 && profile.output.auto_plot)
      rc = aiperf::cli::run_auto_plot(config.output.artifact_dir, profile.output.plot_required);
    std::cout.flush();
    _exit(rc);
  }
  // --auto-plot: `aiperf plot` on what a successful run wrote (a sweep: its whole tree).
  const auto auto_plot = [&](int rc) {
    return rc == 0 && profile.output.auto_plot
               ? aiperf::cli::run_auto_plot(config.output.artifact_dir, profile.output.plot_required)
               : rc;
  };
  if (!sweep_points.empty()) {
    if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(config.service.zmq_ipc_path);
    int rc = aiperf::cli::run_sweep(sweep_points, sweep_configs, config.output.artifact_dir, profile.multi_run);
    if (profile.search.grid)
      rc = aiperf::cli::finish_grid_recipe(*profile.search.grid, rc, config.output.artifact_dir, profile.multi_run);
    rc = auto_plot(rc);
    std::cout.flush();
    _exit(rc);
  }
  if (profile.multi_run.enabled()) {
    // Each trial makes its own IPC directory; the one made for a single run is not needed.
    if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) std::filesystem::remove_all(config.service.zmq_ipc_path);
    config.service.zmq_ipc_path.clear();
    return auto_plot(aiperf::cli::run_multi(config, profile.multi_run));
  }
  const int64_t run_start_unix_ns = aiperf::wall_now_ns();
  int rc = aiperf::controller::run_profile(config);
  // --otel-url / --mlflow-tracking-uri: best effort, whatever the run's outcome; never changes rc.
  aiperf::cli::send_remote_exports(profile, config, run_start_unix_ns);
  if (!config.service.zmq_ipc_path.empty() && config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) {
    std::error_code ec;
    std::filesystem::remove_all(config.service.zmq_ipc_path, ec);
  }
  rc = auto_plot(rc);
  std::cout.flush();
  _exit(rc);  // proxy threads block in zmq::proxy forever; skip static destructors
}
