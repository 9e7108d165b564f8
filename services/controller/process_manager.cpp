#include "process_manager.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "time/clock.h"

namespace aiperf::controller {
namespace {
int decode_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}
}  // namespace

ProcessManager::~ProcessManager() { stop_all(0); }

void ProcessManager::spawn(const std::string& service_id, const std::vector<std::string>& args) {
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) throw std::runtime_error("cannot locate /proc/self/exe");
  exe[n] = '\0';
  std::vector<std::string> argv_store;
  argv_store.push_back(exe);
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);

  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed for " + service_id);
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(1);  // parent died between fork and prctl
    // Children ignore the terminal's Ctrl-C: the controller decides how a run is cancelled.
    signal(SIGINT, SIG_IGN);
    execv(exe, argv.data());
    _exit(127);
  }
  children_.push_back({pid, service_id});
}

std::vector<ChildExit> ProcessManager::reap() {
  std::vector<ChildExit> out;
  for (auto it = children_.begin(); it != children_.end();) {
    int status = 0;
    if (waitpid(it->pid, &status, WNOHANG) == it->pid) {
      out.push_back({it->service_id, decode_status(status)});
      it = children_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

void ProcessManager::stop_all(int grace_ms) {
  for (const auto& c : children_) kill(c.pid, SIGTERM);
  const Nanos deadline = steady_now_ns() + Nanos(grace_ms) * 1'000'000;
  while (!children_.empty() && steady_now_ns() < deadline) {
    reap();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (const auto& c : children_) kill(c.pid, SIGKILL);
  for (const auto& c : children_) waitpid(c.pid, nullptr, 0);
  children_.clear();
}

}  // namespace aiperf::controller
