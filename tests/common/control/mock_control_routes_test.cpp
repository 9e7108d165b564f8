#include <catch2/catch.hpp>

#include "control_routes.h"

using aiperf::mock::ControlRoutes;
using aiperf::mock::ControlSpec;

namespace {
auto no_headers = [](const std::string&) { return std::string_view(); };
}

TEST_CASE("mock control routes: unready answers first, then counted hooks in order", "[unit][control][mock]") {
  ControlSpec spec;
  spec.unready_requests = 2;
  spec.extra_paths = {"/custom"};
  ControlRoutes routes(spec);
  CHECK_FALSE(routes.handle(false, "/metrics", no_headers));  // never held back
  CHECK(routes.handle(false, "/v1/models", no_headers)->status == 503);
  CHECK(routes.handle(true, "/v1/chat/completions", no_headers)->status == 503);
  CHECK_FALSE(routes.handle(false, "/v1/models", no_headers));
  CHECK(routes.handle(true, "/reset_prefix_cache", no_headers)->status == 200);
  CHECK_FALSE(routes.handle(true, "/v1/chat/completions", no_headers));
  CHECK_FALSE(routes.handle(true, "/v1/chat/completions?x", no_headers));
  CHECK(routes.handle(true, "/start_profile", no_headers)->body == R"({"status":"ok"})");
  CHECK_FALSE(routes.handle(true, "/v1/completions", no_headers));
  CHECK(routes.handle(true, "/stop_profile", no_headers)->status == 200);
  CHECK(routes.handle(true, "/stop_profile", no_headers)->status == 200);
  CHECK_FALSE(routes.handle(false, "/start_profile", no_headers));  // GET: not a hook
  CHECK(routes.metrics_text() ==
        "# TYPE mock_control_calls_total counter\n"
        "mock_control_calls_total{path=\"/custom\"} 0\n"
        "mock_control_calls_total{path=\"/reset_prefix_cache\"} 1\n"
        "mock_control_calls_total{path=\"/start_profile\"} 1\n"
        "mock_control_calls_total{path=\"/stop_profile\"} 2\n"
        "# TYPE mock_control_generation_before gauge\n"
        "mock_control_generation_before{path=\"/reset_prefix_cache\"} 0\n"
        "mock_control_generation_before{path=\"/start_profile\"} 2\n"
        "mock_control_generation_before{path=\"/stop_profile\"} 3\n"
        "# TYPE mock_control_order gauge\n"
        "mock_control_order{path=\"/reset_prefix_cache\"} 1\n"
        "mock_control_order{path=\"/start_profile\"} 2\n"
        "mock_control_order{path=\"/stop_profile\"} 3\n"
        "# TYPE mock_control_unready_answers_total counter\nmock_control_unready_answers_total 2\n"
        "# TYPE mock_control_generation_posts_total counter\nmock_control_generation_posts_total 3\n");
}

TEST_CASE("mock control routes: --control-status and --count-header", "[unit][control][mock]") {
  ControlSpec spec;
  spec.status = 503;
  spec.count_headers = {"X-Session-ID"};
  ControlRoutes routes(spec);
  auto with = [](std::string v) { return [v](const std::string& n) { return n == "X-Session-ID" ? std::string_view(v) : std::string_view(); }; };
  CHECK(routes.handle(true, "/reset_prefix_cache", no_headers)->status == 503);
  routes.handle(true, "/v1/chat/completions", with("s1"));
  routes.handle(true, "/v1/chat/completions", with("s1"));
  routes.handle(true, "/v1/chat/completions", with("s2"));
  routes.handle(true, "/v1/chat/completions", no_headers);
  const std::string text = routes.metrics_text();
  CHECK(text.find("mock_control_header_requests_total{header=\"X-Session-ID\"} 3\n") != std::string::npos);
  CHECK(text.find("mock_control_header_distinct_values{header=\"X-Session-ID\"} 2\n") != std::string::npos);
}
