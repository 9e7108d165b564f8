// The mock's side of aiperf's readiness probe and control hooks, for tests that must see them
// happen exactly once and in order:
//  - POST /reset_prefix_cache, /start_profile, /stop_profile (vLLM's) and each --control-path
//    answer 200 {"status":"ok"} (or --control-status), counted per path with the number of
//    generation requests (POSTs to other paths) received before each call's first arrival;
//  - --unready-requests N: the first N requests other than GET /metrics answer 503, as a
//    server still loading its model;
//  - --count-header NAME: requests carrying the header, and its distinct values, are counted.
// All of it is rendered on /metrics (mock_control_*). Counts are per server process.
#pragma once
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace aiperf::mock {

struct ControlSpec {
  std::vector<std::string> extra_paths;  // --control-path
  int status = 200;                      // --control-status: what every control path answers
  uint64_t unready_requests = 0;         // --unready-requests
  std::vector<std::string> count_headers;  // --count-header
};

void add_control_options(CLI::App& app, ControlSpec& spec);

class ControlRoutes {
 public:
  explicit ControlRoutes(const ControlSpec& spec);

  struct Answer {
    int status;
    std::string body;
  };
  // Called for every request before routing. An answer is sent as is; nullopt = route normally.
  // `header` looks a request header up by name (empty when absent). Thread-safe.
  template <typename HeaderLookup>
  std::optional<Answer> handle(bool post, std::string_view target, HeaderLookup header) {
    for (const std::string& name : spec_.count_headers) count_header(name, header(name));
    return handle_path(post, target);
  }

  std::string metrics_text() const;  // mock_control_* lines for /metrics

 private:
  std::optional<Answer> handle_path(bool post, std::string_view target);
  void count_header(const std::string& name, std::string_view value);

  const ControlSpec spec_;
  std::vector<std::string> paths_;
  mutable std::mutex mutex_;
  uint64_t generation_posts_ = 0;
  uint64_t unready_answered_ = 0;
  struct PathCount {
    uint64_t calls = 0;
    uint64_t generation_before_first = 0;
    uint64_t order_first = 0;  // 1 = the first control call of the run
  };
  std::map<std::string, PathCount> calls_;
  uint64_t control_calls_ = 0;
  struct HeaderCount {
    uint64_t requests = 0;
    std::set<std::string> values;
  };
  std::map<std::string, HeaderCount> headers_;
};

}  // namespace aiperf::mock
