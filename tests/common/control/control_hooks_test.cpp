#include <catch2/catch.hpp>

#include "control/run_hooks.h"
#include "fake_control.h"

using namespace aiperf;
using aiperf::test::FakeClock;
using aiperf::test::FakeTransport;
using aiperf::test::refused;
using aiperf::test::status;

namespace {

std::vector<std::string> calls(const FakeTransport& t) {
  std::vector<std::string> out;
  for (const auto& r : t.sent) out.push_back(r.method + " " + r.url);
  return out;
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const control::ControlHookError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("hook URLs: each path on every distinct origin of --url, in order", "[unit][control]") {
  control::HookSettings s;
  s.urls = {"http://a:1/v1", "a:1", "https://b:2?x=1", "http://a:1"};
  s.reset = true;
  s.profiler = true;
  s.stop_path = "/custom/stop";
  const control::HookPlan plan = control::plan_hooks(s);
  CHECK(plan.reset_urls == std::vector<std::string>{"http://a:1/reset_prefix_cache", "https://b:2/reset_prefix_cache"});
  CHECK(plan.profiler_start_urls == std::vector<std::string>{"http://a:1/start_profile", "https://b:2/start_profile"});
  CHECK(plan.profiler_stop_urls == std::vector<std::string>{"http://a:1/custom/stop", "https://b:2/custom/stop"});
  s.reset = false;
  s.profiler = false;
  CHECK(control::plan_hooks(s).reset_urls.empty());
  CHECK(control::plan_hooks(s).profiler_start_urls.empty());
}

TEST_CASE("reset: an empty-body POST per origin; 503 is retried after 1 s then 2 s", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [&](const auto&) { return t.sent.size() < 3 ? status(503) : status(200); };
  control::HookPlan plan;
  plan.reset_urls = {"http://a:1/reset_prefix_cache"};
  plan.reset_timeout_s = 7;
  plan.headers = {{"X-Tenant", "t"}};
  control::run_reset_kv_cache(plan, t, clock);
  REQUIRE(t.sent.size() == 3);
  CHECK(t.sent[0].method == "POST");
  CHECK(t.sent[0].body.empty());
  CHECK(t.sent[0].timeout_s == 7);
  CHECK(t.sent[0].headers == control::Headers{{"X-Tenant", "t"}});
  CHECK(clock.sleeps == std::vector<double>{1, 2});
}

TEST_CASE("reset: a rejection (400) fails at once; transport failures retry with capped backoff for 60 s",
          "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  control::HookPlan plan;
  plan.reset_urls = {"http://a:1/reset_prefix_cache"};
  t.answer = [](const auto&) { return status(400); };
  CHECK(error_of([&] { control::run_reset_kv_cache(plan, t, clock); }) ==
        "control_plane POST http://a:1/reset_prefix_cache failed with status 400");
  CHECK(t.sent.size() == 1);

  FakeClock clock2;
  FakeTransport t2(clock2);
  t2.answer = [](const auto&) { return refused(); };
  CHECK(error_of([&] { control::run_reset_kv_cache(plan, t2, clock2); }) ==
        "control_plane POST http://a:1/reset_prefix_cache failed: ClientConnectorError: Connection refused");
  // Tries at 0, 1, 3, 7, 15, 23, 31, 39, 47, 55 s; the next (63 s) would be past the 60 s budget.
  std::vector<double> at;
  for (const auto& r : t2.sent) at.push_back(r.at);
  CHECK(at == std::vector<double>{0, 1, 3, 7, 15, 23, 31, 39, 47, 55});
}

TEST_CASE("profiler start: a failed start stops the origins already started, in reverse, then fails",
          "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  control::HookSettings s;
  s.urls = {"http://a:1", "http://b:2", "http://c:3"};
  s.profiler = true;
  s.profiler_timeout_s = 4;
  const control::HookPlan plan = control::plan_hooks(s);
  t.answer = [](const auto& r) { return r.url == "http://c:3/start_profile" ? status(500) : status(200); };
  CHECK(error_of([&] { control::start_server_profiler(plan, t); }) ==
        "control_plane POST http://c:3/start_profile failed with status 500");
  CHECK(calls(t) == std::vector<std::string>{"POST http://a:1/start_profile", "POST http://b:2/start_profile",
                                             "POST http://c:3/start_profile", "POST http://b:2/stop_profile",
                                             "POST http://a:1/stop_profile"});
  CHECK(t.sent[0].timeout_s == 4);
}

TEST_CASE("profiler stop: every origin is tried; the failures make one error", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  control::HookSettings s;
  s.urls = {"http://a:1", "http://b:2", "http://c:3"};
  s.profiler = true;
  const control::HookPlan plan = control::plan_hooks(s);
  t.answer = [](const auto& r) { return r.url == "http://b:2/stop_profile" ? status(200) : refused(); };
  CHECK(error_of([&] { control::stop_server_profiler(plan, t); }) ==
        "server_profiler stop failed for 2 origin(s): control_plane POST http://a:1/stop_profile failed: "
        "ClientConnectorError: Connection refused; control_plane POST http://c:3/stop_profile failed: "
        "ClientConnectorError: Connection refused");
  CHECK(t.sent.size() == 3);
}

TEST_CASE("control headers: -H headers, then the API key as Bearer (x-api-key for messages)", "[unit][control]") {
  config::RunConfig c;
  c.input.headers = {{"X-Tenant", "t"}, {"authorization", "old"}};
  c.endpoint.api_key = "k";
  CHECK(control::control_headers(c) == control::Headers{{"X-Tenant", "t"}, {"authorization", "Bearer k"}});
  c.endpoint.type = "messages";
  c.input.headers = {{"Anthropic-Version", "2024-01-01"}};
  CHECK(control::control_headers(c) ==
        control::Headers{{"Anthropic-Version", "2024-01-01"}, {"x-api-key", "k"}});
  c.endpoint.api_key.clear();
  c.input.headers.clear();
  CHECK(control::control_headers(c) == control::Headers{{"anthropic-version", "2023-06-01"}});
}

TEST_CASE("hook plan from the run config: defaults, custom paths and timeouts", "[unit][control]") {
  config::RunConfig c;
  c.endpoint.urls = {"http://127.0.0.1:8000"};
  c.endpoint.reset_kv_cache = true;
  c.endpoint.reset_kv_cache_timeout_seconds = 3;
  c.endpoint.server_profiler = true;
  c.endpoint.server_profiler_start_path = "/p/start";
  const control::HookPlan plan = control::hook_plan(c);
  CHECK(plan.reset_urls == std::vector<std::string>{"http://127.0.0.1:8000/reset_prefix_cache"});
  CHECK(plan.reset_timeout_s == 3);
  CHECK(plan.profiler_timeout_s == 30);
  CHECK(plan.profiler_start_urls == std::vector<std::string>{"http://127.0.0.1:8000/p/start"});
  CHECK(plan.profiler_stop_urls == std::vector<std::string>{"http://127.0.0.1:8000/stop_profile"});
}
