#include "control_routes.h"

#include <algorithm>

namespace aiperf::mock {

void add_control_options(CLI::App& app, ControlSpec& spec) {
  app.add_option("--control-path", spec.extra_paths,
                 "Also answer POSTs to this path as a control hook (besides /reset_prefix_cache, "
                 "/start_profile, /stop_profile); repeatable");
  app.add_option("--control-status", spec.status, "Status every control path answers (default 200)")
      ->check(CLI::Range(200, 599));
  app.add_option("--unready-requests", spec.unready_requests,
                 "Answer the first N requests (other than GET /metrics) with 503, as a server still loading");
  app.add_option("--count-header", spec.count_headers,
                 "Count requests carrying this header and its distinct values on /metrics; repeatable");
}

ControlRoutes::ControlRoutes(const ControlSpec& spec) : spec_(spec) {
  paths_ = {"/reset_prefix_cache", "/start_profile", "/stop_profile"};
  paths_.insert(paths_.end(), spec.extra_paths.begin(), spec.extra_paths.end());
  for (const auto& p : paths_) calls_[p];
  for (const auto& h : spec.count_headers) headers_[h];
}

std::optional<ControlRoutes::Answer> ControlRoutes::handle_path(bool post, std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  std::lock_guard lock(mutex_);
  if (path == "/metrics") return std::nullopt;
  if (unready_answered_ < spec_.unready_requests) {
    ++unready_answered_;
    return Answer{503, R"j({"error":"model is loading (--unready-requests)"})j"};
  }
  const bool control = post && std::find(paths_.begin(), paths_.end(), path) != paths_.end();
  if (!control) {
    if (post) ++generation_posts_;
    return std::nullopt;
  }
  PathCount& c = calls_[std::string(path)];
  if (c.calls++ == 0) {
    c.generation_before_first = generation_posts_;
    c.order_first = ++control_calls_;
  }
  if (spec_.status >= 200 && spec_.status < 300) return Answer{spec_.status, R"({"status":"ok"})"};
  return Answer{spec_.status, R"j({"error":"control hook refused (--control-status)"})j"};
}

void ControlRoutes::count_header(const std::string& name, std::string_view value) {
  if (value.empty()) return;
  std::lock_guard lock(mutex_);
  HeaderCount& h = headers_[name];
  ++h.requests;
  h.values.emplace(value);
}

std::string ControlRoutes::metrics_text() const {
  std::lock_guard lock(mutex_);
  std::string out;
  out += "# TYPE mock_control_calls_total counter\n";
  for (const auto& [path, c] : calls_)
    out += "mock_control_calls_total{path=\"" + path + "\"} " + std::to_string(c.calls) + "\n";
  out += "# TYPE mock_control_generation_before gauge\n";
  for (const auto& [path, c] : calls_)
    if (c.calls)
      out += "mock_control_generation_before{path=\"" + path + "\"} " + std::to_string(c.generation_before_first) + "\n";
  out += "# TYPE mock_control_order gauge\n";
  for (const auto& [path, c] : calls_)
    if (c.calls) out += "mock_control_order{path=\"" + path + "\"} " + std::to_string(c.order_first) + "\n";
  out += "# TYPE mock_control_unready_answers_total counter\nmock_control_unready_answers_total " +
         std::to_string(unready_answered_) + "\n";
  out += "# TYPE mock_control_generation_posts_total counter\nmock_control_generation_posts_total " +
         std::to_string(generation_posts_) + "\n";
  for (const auto& [name, h] : headers_) {
    out += "mock_control_header_requests_total{header=\"" + name + "\"} " + std::to_string(h.requests) + "\n";
    out += "mock_control_header_distinct_values{header=\"" + name + "\"} " + std::to_string(h.values.size()) + "\n";
  }
  return out;
}

}  // namespace aiperf::mock
