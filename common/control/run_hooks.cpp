#include "run_hooks.h"

#include <algorithm>
#include <cctype>

namespace aiperf::control {

Headers control_headers(const config::RunConfig& config) {
  Headers headers = config.input.headers;
  const auto& ep = config.endpoint;
  auto set = [&headers](const std::string& name, const std::string& value, bool overwrite) {
    for (auto& [n, v] : headers) {
      if (n.size() == name.size() && std::equal(n.begin(), n.end(), name.begin(), [](char a, char b) {
            return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
          })) {
        if (overwrite) v = value;
        return;
      }
    }
    headers.emplace_back(name, value);
  };
  if (ep.type == "messages") {
    set("anthropic-version", "2023-06-01", false);
    if (!ep.api_key.empty()) set("x-api-key", ep.api_key, true);
  } else if (!ep.api_key.empty()) {
    set("Authorization", "Bearer " + ep.api_key, true);
  }
  return headers;
}

ProbeSettings probe_settings(const config::RunConfig& config) {
  const auto& ep = config.endpoint;
  ProbeSettings s;
  s.urls = ep.urls;
  s.model_names = ep.model_names;
  s.mode = ep.wait_for_model_mode;
  s.endpoint_type = ep.type;
  s.custom_endpoint = ep.custom_endpoint;
  s.timeout_s = ep.wait_for_model_timeout;
  s.interval_s = ep.wait_for_model_interval;
  s.headers = control_headers(config);
  return s;
}

HookPlan hook_plan(const config::RunConfig& config) {
  const auto& ep = config.endpoint;
  HookSettings s;
  s.urls = ep.urls;
  s.reset = ep.reset_kv_cache;
  s.reset_path = ep.reset_kv_cache_path;
  s.reset_timeout_s = ep.reset_kv_cache_timeout_seconds.value_or(kDefaultHookTimeoutS);
  s.profiler = ep.server_profiler;
  s.start_path = ep.server_profiler_start_path;
  s.stop_path = ep.server_profiler_stop_path;
  s.profiler_timeout_s = ep.server_profiler_timeout_seconds.value_or(kDefaultHookTimeoutS);
  s.headers = control_headers(config);
  return plan_hooks(s);
}

}  // namespace aiperf::control
