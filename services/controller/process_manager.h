// ProcessManager: spawns services as child processes of this same executable
// (`<exe> service --type T ...`), reaps them, and stops them with a bounded escalation
// (SIGTERM, then SIGKILL). Children get PR_SET_PDEATHSIG so they never outlive the controller.
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace aiperf::controller {

struct ChildExit {
  std::string service_id;
  int exit_code;  // 128 + signal when killed by a signal
};

class ProcessManager {
 public:
  ~ProcessManager();

  // Starts `<this exe> args...`; throws std::runtime_error if fork/exec fails.
  void spawn(const std::string& service_id, const std::vector<std::string>& args);

  // Children that exited since the last call (non-blocking).
  std::vector<ChildExit> reap();

  // SIGTERM everyone still alive, wait up to `grace_ms`, then SIGKILL and reap.
  void stop_all(int grace_ms);

  size_t alive() const { return children_.size(); }

 private:
  struct Child {
    pid_t pid;
    std::string service_id;
  };
  std::vector<Child> children_;
};

}  // namespace aiperf::controller
