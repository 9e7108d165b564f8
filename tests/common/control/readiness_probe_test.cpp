#include <catch2/catch.hpp>

#include "control/readiness_probe.h"
#include "fake_control.h"

using namespace aiperf;
using aiperf::test::FakeClock;
using aiperf::test::FakeTransport;
using aiperf::test::refused;
using aiperf::test::status;

namespace {

control::ProbeSettings settings(std::string mode, double timeout, double interval) {
  control::ProbeSettings s;
  s.urls = {"http://127.0.0.1:9"};
  s.model_names = {"m"};
  s.mode = config::enum_from_string<config::WaitForModelMode>(mode, "mode");
  s.timeout_s = timeout;
  s.interval_s = interval;
  return s;
}

std::string timeout_message(const control::ProbeSettings& s, FakeTransport& t, FakeClock& c) {
  try {
    control::wait_for_endpoint(s, t, c);
  } catch (const control::ReadinessTimeout& e) {
    return e.what();
  }
  return "no timeout";
}

}  // namespace

TEST_CASE("inference probe: connection errors are retried every interval until a response", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [&](const auto&) { return t.sent.size() < 4 ? refused() : status(200); };
  control::wait_for_endpoint(settings("inference", 60, 0.5), t, clock);
  REQUIRE(t.sent.size() == 4);
  CHECK(t.sent[0].method == "POST");
  CHECK(t.sent[0].url == "http://127.0.0.1:9/v1/chat/completions");
  CHECK(t.sent[0].body == R"({"messages":[{"role":"user","content":"Lo"}],"max_tokens":1,"model":"m"})");
  CHECK(t.sent[0].headers.front() == std::make_pair(std::string("Content-Type"), std::string("application/json")));
  CHECK(t.sent[3].at == Approx(1.5));
  CHECK(clock.sleeps == std::vector<double>{0.5, 0.5, 0.5});
  // One attempt may take max(interval, 30 s), cut to what is left of the deadline.
  CHECK(t.sent[0].timeout_s == Approx(30.0));
}

TEST_CASE("inference probe: below 500 is ready (a 4xx answers the benchmark too), 5xx is retried", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [&](const auto&) { return t.sent.size() == 1 ? status(503) : status(404); };
  control::wait_for_endpoint(settings("inference", 10, 1), t, clock);
  CHECK(t.sent.size() == 2);
}

TEST_CASE("inference probe: the reference's timeout message, attempts counted, last sleep cut at the deadline",
          "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [](const auto&) { return refused(); };
  CHECK(timeout_message(settings("inference", 2, 0.5), t, clock) ==
        "Timed out after 2.0s probing http://127.0.0.1:9/v1/chat/completions with model 'm' (checked 4 time(s))");
  CHECK(t.sent.size() == 4);
  CHECK(t.sent[3].timeout_s == Approx(0.5));  // min(30, remaining 0.5)

  FakeClock clock2;
  FakeTransport t2(clock2);
  t2.answer = [](const auto&) { return refused(); };
  // An interval longer than what is left: the sleep stops at the deadline (2.0 + 1.5 = 3.5 > 3).
  CHECK(timeout_message(settings("inference", 3, 2), t2, clock2) ==
        "Timed out after 3.0s probing http://127.0.0.1:9/v1/chat/completions with model 'm' (checked 2 time(s))");
  CHECK(clock2.sleeps == std::vector<double>{2, 1});
}

TEST_CASE("models probe: waits until /v1/models lists the model in data[].id", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [&](const auto&) {
    if (t.sent.size() == 1) return status(503);
    if (t.sent.size() == 2) return status(200, R"({"data":[{"id":"other"}]})");
    if (t.sent.size() == 3) return status(200, "not json");
    return status(200, R"({"object":"list","data":[{"id":"other"},{"id":"m"}]})");
  };
  control::wait_for_endpoint(settings("models", 60, 2), t, clock);
  REQUIRE(t.sent.size() == 4);
  CHECK(t.sent[0].method == "GET");
  CHECK(t.sent[0].url == "http://127.0.0.1:9/v1/models");
  CHECK(t.sent[0].timeout_s == Approx(5.0));  // max(interval, 5)
  CHECK(clock.now == Approx(6.0));
}

TEST_CASE("models probe: a 404 falls back to the base URL, where any 2xx is ready", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [&](const auto& r) {
    if (r.url.size() > 10 && r.url.find("/v1/models") != std::string::npos) return status(404);
    return t.sent.size() == 2 ? status(500) : status(204);
  };
  control::wait_for_endpoint(settings("models", 60, 1), t, clock);
  REQUIRE(t.sent.size() == 4);
  CHECK(t.sent[1].url == "http://127.0.0.1:9");
  CHECK(t.sent[3].url == "http://127.0.0.1:9");
}

TEST_CASE("models probe: the reference's timeout message names the model and the URL", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [](const auto&) { return status(200, R"({"data":[{"id":"gpt2"}]})"); };
  auto s = settings("models", 1, 0.25);
  s.urls = {"127.0.0.1:9"};  // no scheme: http is assumed
  CHECK(timeout_message(s, t, clock) ==
        "Timed out after 1.0s waiting for model 'm' to become ready at http://127.0.0.1:9 (checked 4 time(s))");
}

TEST_CASE("both: models then inference, per URL in order, every model", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [](const auto& r) {
    return r.method == "GET" ? status(200, R"({"data":[{"id":"a"},{"id":"b"}]})") : status(200);
  };
  auto s = settings("both", 10, 1);
  s.urls = {"http://h1:1", "http://h2:2/"};
  s.model_names = {"a", "b"};
  s.headers = {{"Authorization", "Bearer k"}};
  control::wait_for_endpoint(s, t, clock);
  std::vector<std::string> seen;
  for (const auto& r : t.sent) seen.push_back(r.method + " " + r.url + (r.method == "POST" ? " " + r.body.substr(r.body.find("\"model\"")) : ""));
  CHECK(seen == std::vector<std::string>{"GET http://h1:1/v1/models", "GET http://h1:1/v1/models",
                                         "POST http://h1:1/v1/chat/completions \"model\":\"a\"}",
                                         "POST http://h1:1/v1/chat/completions \"model\":\"b\"}",
                                         "GET http://h2:2/v1/models", "GET http://h2:2/v1/models",
                                         "POST http://h2:2/v1/chat/completions \"model\":\"a\"}",
                                         "POST http://h2:2/v1/chat/completions \"model\":\"b\"}"});
  CHECK(t.sent[0].headers == control::Headers{{"Authorization", "Bearer k"}});
  CHECK(t.sent[2].headers == control::Headers{{"Content-Type", "application/json"}, {"Authorization", "Bearer k"}});
}

TEST_CASE("timeout 0 probes nothing", "[unit][control]") {
  FakeClock clock;
  FakeTransport t(clock);
  t.answer = [](const auto&) { return refused(); };
  control::wait_for_endpoint(settings("both", 0, 1), t, clock);
  CHECK(t.sent.empty());
}

TEST_CASE("inference probe request: path and body per endpoint type, --endpoint and URL paths", "[unit][control]") {
  using control::inference_probe_request;
  CHECK(inference_probe_request("h:1", "m", "completions", "") ==
        std::make_pair(std::string("http://h:1/v1/completions"), std::string(R"({"prompt":"Lo","max_tokens":1,"model":"m"})")));
  CHECK(inference_probe_request("http://h:1/", "m", "embeddings", "") ==
        std::make_pair(std::string("http://h:1/v1/embeddings"), std::string(R"({"input":"Lo","model":"m"})")));
  CHECK(inference_probe_request("http://h:1", "m", "messages", "").first == "http://h:1/v1/messages");
  CHECK(inference_probe_request("http://h:1", "m", "chat", "/custom/path").first == "http://h:1/custom/path");
  CHECK(inference_probe_request("http://h:1/v1/chat/completions/", "m", "chat", "").first ==
        "http://h:1/v1/chat/completions");
  // Types without a template of their own get the chat request (the reference's fallback).
  CHECK(inference_probe_request("http://h:1", "m", "nim_rankings", "") ==
        std::make_pair(std::string("http://h:1/v1/chat/completions"),
                       std::string(R"({"messages":[{"role":"user","content":"Lo"}],"max_tokens":1,"model":"m"})")));
}
