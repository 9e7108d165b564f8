// Child processes for end-to-end tests: start a binary with arguments, capture its stdout and
// stderr to files, wait with a deadline, kill on destruction. Nothing here sleeps blindly:
// waits poll for a condition until a deadline.
#pragma once
#include <sys/types.h>

#include <stdlib.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

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

// What one `aiperf profile` run printed and wrote.
struct ProfileRun {
  int exit_code = -1;
  std::string out, err, dir;  // stdout, stderr, artifact directory
  nlohmann::json json_file(const std::string& name) const;
  std::vector<nlohmann::json> lines(const std::string& name) const;  // a JSONL file
  nlohmann::json summary() const { return json_file("profile_export_aiperf.json"); }
  nlohmann::json inputs() const { return json_file("inputs.json"); }
  std::vector<nlohmann::json> records() const { return lines("profile_export.jsonl"); }
};

// Runs `aiperf profile --artifact-dir <dir> <args...>` to completion; its output is captured
// under `log_dir` as <name>.out/.err. Throws std::runtime_error if it outlives `timeout_s`.
ProfileRun run_profile(const std::string& dir, const std::vector<std::string>& args, const std::string& log_dir,
                       const std::string& name = "aiperf", double timeout_s = 180);

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

// One request the mock received (--record-requests).
struct RecordedRequest {
  std::string path;
  nlohmann::json body;
};

// A profile run plus every request the mock received, in arrival order.
struct CapturedRun : ProfileRun {
  std::vector<RecordedRequest> requests;
};

// Runs aiperf (gpt2 tokenizer, no UI, concurrency 1, seed 5, then `args`) against a fresh mock
// started with `mock_args` that records every request.
CapturedRun run_captured(const std::vector<std::string>& args, std::vector<std::string> mock_args = {"--fast"});

// Exit 0, `requests` requests received and recorded, no error record, request_count matches.
void check_clean(const CapturedRun& run, size_t requests);

// Runs aiperf (gpt2 tokenizer, no UI, model "m", then `args`) with artifacts in <tmp>/<name>
// and its output captured as <tmp>/<name>.out/.err.
ProfileRun run_named(const std::string& tmp, const std::string& name, const std::vector<std::string>& args);

// The bodies of the requests in a --record-requests file, in arrival order.
std::vector<nlohmann::json> recorded_bodies(const std::string& file);

// An environment variable set for a scope (the HF cache of the dataset tests), unset after.
struct ScopedEnv {
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  const char* name_;
};

// The working directory changed for a scope (./<org>/<name> dataset lookups), restored after.
struct ScopedCwd {
  explicit ScopedCwd(const std::string& dir) : old_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~ScopedCwd() { std::filesystem::current_path(old_); }
  std::filesystem::path old_;
};

}  // namespace aiperf::test
