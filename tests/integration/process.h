// Child processes for end-to-end tests: start a binary with arguments, capture its stdout and
// stderr to files, wait with a deadline, kill on destruction. Nothing here sleeps blindly:
// waits poll for a condition until a deadline.
#pragma once
#include <sys/types.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aiperf::test {

class Process {
 public:
  // Starts `binary args...`; stdout/stderr go to files under `log_dir`.
  Process(const std::string& binary, const std::vector<std::string>& args, const std::string& log_dir,
          const std::string& name);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // Exit code once exited within `timeout_s` (128+signal if killed), nullopt on timeout.
  std::optional<int> wait(double timeout_s);
  void kill_now(int sig = 9);
  pid_t pid() const { return pid_; }
  std::string out() const;  // captured stdout so far
  std::string err() const;  // captured stderr so far

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  std::string out_path_, err_path_;
};

std::string read_file(const std::string& path);
std::vector<std::string> read_lines(const std::string& path);
// Polls `cond` every 10 ms until true or `timeout_s` passes.
bool wait_until(const std::function<bool()>& cond, double timeout_s);
std::string make_temp_dir();
// A base port with `count` consecutive free TCP ports on 127.0.0.1.
int free_port_range(int count);

// A running aiperf-mock-server on an ephemeral port.
class MockServer {
 public:
  MockServer(const std::vector<std::string>& args, const std::string& log_dir);
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }
  Process& process() { return process_; }

 private:
  Process process_;
  int port_ = 0;
};

}  // namespace aiperf::test
