// Endpoint control hooks, as AIPerf 0.13's common/control_hooks.py: an empty-body POST of a
// KV-cache reset before the benchmark (--reset-kv-cache) and of profiler start/stop around the
// profiling phase (--server-profiler), to each distinct scheme://host:port of the --url list.
// Success is any 2xx.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "control_transport.h"

namespace aiperf::control {

inline constexpr const char* kDefaultResetPath = "/reset_prefix_cache";
inline constexpr const char* kDefaultProfilerStartPath = "/start_profile";
inline constexpr const char* kDefaultProfilerStopPath = "/stop_profile";
inline constexpr double kDefaultHookTimeoutS = 30.0;
inline constexpr double kResetMaxRetryS = 60.0;  // the reference's retry budget of a reset

struct HookPlan {
  std::vector<std::string> reset_urls;           // empty = hook off
  std::vector<std::string> profiler_start_urls;  // empty = hook off
  std::vector<std::string> profiler_stop_urls;
  double reset_timeout_s = kDefaultHookTimeoutS;
  double profiler_timeout_s = kDefaultHookTimeoutS;
  double reset_max_retry_s = kResetMaxRetryS;
  Headers headers;
};

struct HookSettings {
  std::vector<std::string> urls;
  bool reset = false;
  std::string reset_path;  // "" = default
  double reset_timeout_s = kDefaultHookTimeoutS;
  bool profiler = false;
  std::string start_path, stop_path;  // "" = defaults
  double profiler_timeout_s = kDefaultHookTimeoutS;
  Headers headers;
};

// The hook URLs: each path joined to every distinct origin of `urls`, in --url order.
HookPlan plan_hooks(const HookSettings& settings);

// A hook POST failed; the message names the URL and the status or transport error.
class ControlHookError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// POSTs the reset to every reset URL. A transport failure or a 409/423/429/503 is retried
// after 1, 2, 4, 8, 8 ... s while the next try starts within reset_max_retry_s; any other
// non-2xx fails at once. Throws ControlHookError on the first URL that fails.
void run_reset_kv_cache(const HookPlan& plan, ControlTransport& transport, ProbeClock& clock);

// POSTs profiler start to every origin; when one fails, the ones started are stopped (in
// reverse order, failures ignored) and the error is thrown.
void start_server_profiler(const HookPlan& plan, ControlTransport& transport);

// POSTs profiler stop to every origin, all of them even after a failure; throws one error
// naming every failure ("server_profiler stop failed for N origin(s): ...").
void stop_server_profiler(const HookPlan& plan, ControlTransport& transport);

}  // namespace aiperf::control
