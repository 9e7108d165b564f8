#include "control_hooks.h"

#include <algorithm>

#include "http/url.h"

namespace aiperf::control {
namespace {

constexpr double kBackoffStartS = 1.0;
constexpr double kBackoffCapS = 8.0;
constexpr double kBackoffMultiplier = 2.0;

bool retryable_status(int status) { return status == 409 || status == 423 || status == 429 || status == 503; }

std::string origin_of(const std::string& url) {
  const std::string full = with_scheme(url);
  const size_t scheme_end = full.find("://") + 3;
  const size_t path = full.find_first_of("/?#", scheme_end);
  return path == std::string::npos ? full : full.substr(0, path);
}

// One POST; an empty result = success, else the reference's failure text and whether a
// retry may help (a transport failure).
struct PostOutcome {
  std::string error;
  int status = 0;
  bool transport_failure = false;
};

PostOutcome post(ControlTransport& transport, const std::string& url, const Headers& headers, double timeout_s) {
  const ControlResponse r = transport.send("POST", url, headers, "", timeout_s);
  if (r.status >= 200 && r.status < 300) return {};
  if (r.status == 0) return {"control_plane POST " + url + " failed: " + r.error, 0, true};
  return {"control_plane POST " + url + " failed with status " + std::to_string(r.status), r.status, false};
}

}  // namespace

HookPlan plan_hooks(const HookSettings& s) {
  std::vector<std::string> origins;
  for (const std::string& url : s.urls) {
    std::string origin = origin_of(url);
    if (std::find(origins.begin(), origins.end(), origin) == origins.end()) origins.push_back(std::move(origin));
  }
  HookPlan plan;
  plan.headers = s.headers;
  plan.reset_timeout_s = s.reset_timeout_s;
  plan.profiler_timeout_s = s.profiler_timeout_s;
  for (const std::string& o : origins) {
    if (s.reset) plan.reset_urls.push_back(o + (s.reset_path.empty() ? kDefaultResetPath : s.reset_path));
    if (s.profiler) {
      plan.profiler_start_urls.push_back(o + (s.start_path.empty() ? kDefaultProfilerStartPath : s.start_path));
      plan.profiler_stop_urls.push_back(o + (s.stop_path.empty() ? kDefaultProfilerStopPath : s.stop_path));
    }
  }
  return plan;
}

void run_reset_kv_cache(const HookPlan& plan, ControlTransport& transport, ProbeClock& clock) {
  for (const std::string& url : plan.reset_urls) {
    const double deadline = clock.now_s() + plan.reset_max_retry_s;
    double backoff = kBackoffStartS;
    for (;;) {
      const PostOutcome out = post(transport, url, plan.headers, plan.reset_timeout_s);
      if (out.error.empty()) break;
      const bool retry = out.transport_failure || retryable_status(out.status);
      if (!retry || clock.now_s() + backoff >= deadline) throw ControlHookError(out.error);
      clock.sleep_s(backoff);
      backoff = std::min(backoff * kBackoffMultiplier, kBackoffCapS);
    }
  }
}

void start_server_profiler(const HookPlan& plan, ControlTransport& transport) {
  for (size_t i = 0; i < plan.profiler_start_urls.size(); ++i) {
    const PostOutcome out = post(transport, plan.profiler_start_urls[i], plan.headers, plan.profiler_timeout_s);
    if (out.error.empty()) continue;
    for (size_t j = i; j-- > 0;)
      if (j < plan.profiler_stop_urls.size()) post(transport, plan.profiler_stop_urls[j], plan.headers, plan.profiler_timeout_s);
    throw ControlHookError(out.error);
  }
}

void stop_server_profiler(const HookPlan& plan, ControlTransport& transport) {
  std::vector<std::string> failures;
  for (const std::string& url : plan.profiler_stop_urls) {
    const PostOutcome out = post(transport, url, plan.headers, plan.profiler_timeout_s);
    if (!out.error.empty()) failures.push_back(out.error);
  }
  if (failures.empty()) return;
  std::string joined;
  for (const auto& f : failures) joined += (joined.empty() ? "" : "; ") + f;
  throw ControlHookError("server_profiler stop failed for " + std::to_string(failures.size()) +
                         " origin(s): " + joined);
}

}  // namespace aiperf::control
