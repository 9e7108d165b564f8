#include "multi_run.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "controller.h"
#include "trial_process.h"
#include "export/run_aggregate.h"
#include "log/log.h"
#include "util/output_paths.h"
#include "util/uuid.h"
#include "util/version.h"
#include "time/clock.h"

namespace aiperf::cli {
namespace fs = std::filesystem;
namespace {

volatile sig_atomic_t g_signal = 0;
volatile pid_t g_child = 0;

// The first SIGINT/SIGTERM stops further trials. A signal sent to this process alone (kill)
// is passed on to the running trial; one from the terminal already reached the whole group.
void on_signal(int sig, siginfo_t* info, void*) {
  if (!g_signal) g_signal = sig;
  if (g_child > 0 && info && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) ::kill(g_child, sig);
}

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("aiperf") : p.string();
}

}  // namespace

// Spawns `aiperf profile-trial <config>` and waits; 128 + signal if it was killed.
int run_child(const std::string& config_path) {
  const std::string exe = self_exe();
  // Built before fork: after it the child may only make async-signal-safe calls. Without this
  // line a failed exec (e.g. the binary replaced mid-campaign) showed only as a trial with no metrics.
  const std::string exec_failed = "Error: cannot start " + exe + " profile-trial " + config_path + " (exec failed)\n";
  const pid_t pid = ::fork();
  if (pid < 0) return 1;
  if (pid == 0) {
    ::execl(exe.c_str(), exe.c_str(), "profile-trial", config_path.c_str(), static_cast<char*>(nullptr));
    [[maybe_unused]] const ssize_t n = ::write(2, exec_failed.data(), exec_failed.size());
    std::_Exit(127);
  }
  g_child = pid;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  g_child = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

config::RunConfig trial_config(const config::RunConfig& base, const ProfileOptions::MultiRun& m, uint32_t trial,
                               const std::string& dir) {
  config::RunConfig c = base;
  c.output.artifact_dir = dir;
  c.benchmark_id = util::uuid4();
  if (trial > 1 && m.disable_warmup_after_first) {
    c.loadgen.warmup_request_count.reset();
    c.loadgen.warmup_duration.reset();
    c.loadgen.num_warmup_sessions.reset();
  }
  // Ours: AIPerf derives each trial's seed with a hash; any distinct, reproducible seed serves.
  if (m.vary_seed_per_trial && c.input.random_seed) *c.input.random_seed += trial - 1;
  if (c.service.zmq_host.empty()) {
    char tmpl[] = "/tmp/aiperf-XXXXXX";
    if (!::mkdtemp(tmpl)) throw std::runtime_error("cannot create a temporary IPC directory in /tmp");
    c.service.zmq_ipc_path = tmpl;
  }
  return c;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

void install_trial_signals() {
  struct sigaction sa {};
  sa.sa_sigaction = on_signal;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGINT, &sa, nullptr);
  ::sigaction(SIGTERM, &sa, nullptr);
}

int stop_signal() { return g_signal; }

void note_stop_signal(int sig) {
  if (!g_signal) g_signal = sig;
}

bool cooldown(double seconds) {
  const Nanos until = steady_now_ns() + static_cast<Nanos>(seconds * 1e9);
  while (!g_signal && steady_now_ns() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return !g_signal;
}

int run_multi(const config::RunConfig& base, const ProfileOptions::MultiRun& m) {
  install_trial_signals();

  std::optional<exporting::Convergence> convergence;
  if (m.convergence_metric) {
    convergence = exporting::Convergence{*m.convergence_metric, m.convergence_stat, m.convergence_mode,
                                         m.convergence_threshold};
  }
  const std::string summary_name = fs::path(util::artifact_file(base, "profile_export_aiperf.json")).filename();
  const std::string records_name = fs::path(util::artifact_file(base, "profile_export.jsonl")).filename();
  std::vector<exporting::TrialResult> trials;
  bool all_ok = true;
  for (uint32_t trial = 1; trial <= m.num_runs && !g_signal; ++trial) {
    char label[32];
    std::snprintf(label, sizeof label, "run_%04u", trial);
    const std::string dir = base.output.artifact_dir + "/profile_runs/" + label;
    std::error_code ec;
    fs::create_directories(dir + "/logs", ec);
    if (ec) {
      std::cerr << "Error: cannot create " << dir << ": " << ec.message() << "\n";
      return 1;
    }
    const config::RunConfig cfg = trial_config(base, m, trial, dir);
    write_file(dir + "/run_config.json", config::to_json(cfg).dump(2) + "\n");
    AIPERF_LOG(kInfo) << "Executing " << label << " (" << trial << " of at most " << m.num_runs << ")";
    std::cout << "\nExecuting " << label << "...\n" << std::flush;
    const int rc = run_child(dir + "/run_config.json");
    if (rc == 128 + SIGINT || rc == 128 + SIGTERM) {
      if (!g_signal) g_signal = rc - 128;
      AIPERF_LOG(kWarning) << label << " was interrupted; it is left out of the aggregate";
      break;
    }
    all_ok = all_ok && rc == 0;
    trials.push_back(exporting::read_trial(label, dir, summary_name));
    if (!trials.back().success) {
      AIPERF_LOG(kError) << label << " failed: " << trials.back().error;
    }
    if (convergence && exporting::converged(trials, *convergence, m.confidence_level, records_name)) {
      AIPERF_LOG(kInfo) << "converged after " << trials.size() << " runs (" << m.convergence_mode << " on "
                        << *m.convergence_metric << ")";
      std::cout << "Converged after " << trials.size() << " runs (" << m.convergence_mode << " on "
                << *m.convergence_metric << ")\n";
      break;
    }
    if (trial < m.num_runs && m.cooldown_seconds > 0) cooldown(m.cooldown_seconds);
  }

  const int interrupted = g_signal ? 128 + g_signal : 0;
  if (trials.empty()) {
    std::cerr << "Error: no trial completed\n";
    return interrupted ? interrupted : 1;
  }
  nlohmann::ordered_json aggregate;
  try {
    aggregate = exporting::aggregate_confidence(trials, m.confidence_level, m.cooldown_seconds, util::kVersion);
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return interrupted ? interrupted : 1;
  }
  const std::string out_dir = base.output.artifact_dir + "/aggregate";
  const std::string json_path = out_dir + "/profile_export_aiperf_aggregate.json";
  const std::string csv_path = out_dir + "/profile_export_aiperf_aggregate.csv";
  try {
    fs::create_directories(out_dir);
    write_file(json_path, aggregate.dump(2) + "\n");
    write_file(csv_path, exporting::aggregate_csv(aggregate));
  } catch (const std::exception& e) {
    std::cerr << "Error: " << e.what() << "\n";
    return 1;
  }
  std::cout << "\n" << exporting::aggregate_console(aggregate) << "Aggregate JSON: " << json_path
            << "\nAggregate CSV: " << csv_path << "\n";
  const size_t ok = aggregate["metadata"]["num_successful_runs"].get<size_t>();
  if (interrupted) return interrupted;
  return all_ok && ok == trials.size() ? 0 : 1;
}

int run_trial(const std::string& config_path) {
  config::RunConfig config;
  try {
    std::ifstream in(config_path);
    config = config::run_config_from_json(nlohmann::json::parse(in));
  } catch (const std::exception& e) {
    std::cerr << "Error: " << config_path << ": " << e.what() << "\n";
    return 2;
  }
  log::Level level = log::Level::kInfo;
  log::parse_level(config.service.log_level, level);
  log::init("system_controller", config.output.artifact_dir + "/logs/aiperf.log", level);
  const int rc = controller::run_profile(config);
  if (config.service.zmq_ipc_path.rfind("/tmp/aiperf-", 0) == 0) {
    std::error_code ec;
    fs::remove_all(config.service.zmq_ipc_path, ec);
  }
  return rc;
}

}  // namespace aiperf::cli
