// The live API: Prometheus text, JSON bodies, and the HTTP server answering real requests.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "api_json.h"
#include "api_server.h"
#include "http_get.h"
#include "http_server.h"
#include "prometheus_text.h"

using namespace aiperf;
using namespace aiperf::controller;
using nlohmann::json;

namespace {
constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr int64_t kSec = 1'000'000'000;

ui::RunState running_state() {
  ui::RunState st;
  st.on_stage("running");
  proto::PhaseEvent ev;
  ev.set_kind(proto::PHASE_EVENT_PROGRESS);
  ev.set_phase(proto::PHASE_PROFILING);
  ev.set_sent(10);
  ev.set_completed(8);
  ev.set_total_expected(20);
  ev.set_start_wall_ns(kT0);
  st.on_phase(ev);
  proto::RecordsProgress rp;
  rp.set_phase(proto::PHASE_PROFILING);
  rp.set_success_records(7);
  rp.set_error_records(1);
  st.on_records_progress(rp);
  proto::ProfileResults live;
  proto::MetricResult* m = live.add_records();
  m->set_tag("time_to_first_token");
  m->set_header("Time to First Token");
  m->set_unit("ms");
  m->set_is_record_metric(true);
  m->set_avg(20.5);
  m->set_min(10);
  m->set_max(31);
  m->set_sum(143.5);
  m->set_p50(20);
  m->set_p99(30.5);
  m->set_count(7);
  proto::MetricResult* t = live.add_records();
  t->set_tag("output_token_throughput_per_user");
  t->set_header("Output Token Throughput Per User");
  t->set_unit("tokens/sec/user");
  t->set_avg(12.25);
  t->set_count(1);
  live.set_completed(8);
  st.on_live_metrics(live);
  return st;
}

const api::Labels kLabels{{"model", "m"}, {"endpoint_type", "chat"}};
}  // namespace

TEST_CASE("metric names and units are sanitized as AIPerf's formatter does") {
  CHECK(api::sanitize_metric_name("Time-To.First") == "time_to_first");
  CHECK(api::sanitize_metric_name("9lives") == "_9lives");
  CHECK(api::sanitize_unit("tokens/sec/user") == "tps_per_user");
  CHECK(api::sanitize_unit("requests/sec") == "requests_per_sec");
  CHECK(api::sanitize_unit("%") == "percent");
  CHECK(api::sanitize_unit("ms") == "ms");
}

TEST_CASE("/metrics text holds progress counters, in-flight and the snapshot's summaries") {
  const std::string text = api::prometheus_text(running_state(), kLabels);
  auto has = [&](const std::string& line) { return text.find(line + "\n") != std::string::npos; };
  CHECK(has("aiperf_info{model=\"m\",endpoint_type=\"chat\",version=\"0.1.0\"} 1"));
  CHECK(has("# TYPE aiperf_requests_sent_total counter"));
  CHECK(has("aiperf_requests_sent_total{model=\"m\",endpoint_type=\"chat\",phase=\"profiling\"} 10"));
  CHECK(has("aiperf_requests_completed_total{model=\"m\",endpoint_type=\"chat\",phase=\"profiling\"} 8"));
  CHECK(has("# TYPE aiperf_requests_in_flight gauge"));
  CHECK(has("aiperf_requests_in_flight{model=\"m\",endpoint_type=\"chat\",phase=\"profiling\"} 2"));
  CHECK(has("aiperf_requests_expected{model=\"m\",endpoint_type=\"chat\",phase=\"profiling\"} 20"));
  CHECK(has("aiperf_records_total{model=\"m\",endpoint_type=\"chat\",status=\"success\"} 7"));
  CHECK(has("aiperf_records_total{model=\"m\",endpoint_type=\"chat\",status=\"error\"} 1"));
  CHECK(has("# HELP aiperf_time_to_first_token_ms Time to First Token (in ms)"));
  CHECK(has("# TYPE aiperf_time_to_first_token_ms summary"));
  CHECK(has("aiperf_time_to_first_token_ms{model=\"m\",endpoint_type=\"chat\",quantile=\"0.5\"} 20"));
  CHECK(has("aiperf_time_to_first_token_ms{model=\"m\",endpoint_type=\"chat\",quantile=\"0.99\"} 30.5"));
  CHECK(has("aiperf_time_to_first_token_ms_sum{model=\"m\",endpoint_type=\"chat\"} 143.5"));
  CHECK(has("aiperf_time_to_first_token_ms_count{model=\"m\",endpoint_type=\"chat\"} 7"));
  CHECK(has("aiperf_time_to_first_token_avg_ms{model=\"m\",endpoint_type=\"chat\"} 20.5"));
  CHECK(has("aiperf_time_to_first_token_max_ms{model=\"m\",endpoint_type=\"chat\"} 31"));
  // A scalar metric: gauges only, count among them.
  CHECK(has("aiperf_output_token_throughput_per_user_avg_tps_per_user{model=\"m\",endpoint_type=\"chat\"} 12.25"));
  CHECK(has("aiperf_output_token_throughput_per_user_count_tps_per_user{model=\"m\",endpoint_type=\"chat\"} 1"));
  CHECK(text.find("quantile=\"0.9\"") == std::string::npos);  // p90 absent, no sample
  // Warmup never started: no warmup samples.
  CHECK(text.find("phase=\"warmup\"") == std::string::npos);
}

TEST_CASE("/api/progress reports the phase counts, rate and ETA") {
  const json j = json::parse(api::progress_json(running_state(), kT0 + 4 * kSec, 0).dump());
  const json& p = j["phases"]["profiling"];
  CHECK(p["requests_sent"] == 10);
  CHECK(p["requests_completed"] == 8);
  CHECK(p["in_flight_requests"] == 2);
  CHECK(p["total_expected_requests"] == 20);
  CHECK(p["success_records"] == 7);
  CHECK(p["error_records"] == 1);
  CHECK(p["requests_per_second"] == 2.0);
  CHECK(p["requests_eta_sec"] == 6.0);
  CHECK(p["requests_progress_percent"] == 40.0);
  CHECK(j["system_state"] == "profiling");
  CHECK_FALSE(j["phases"].contains("warmup"));
}

TEST_CASE("/api/metrics and /api/results") {
  ui::RunState st = running_state();
  config::RunConfig cfg;
  cfg.endpoint.model_names = {"b", "a"};
  cfg.endpoint.streaming = true;
  cfg.loadgen.concurrency = 4;
  const json m = json::parse(api::metrics_json(st, cfg).dump());
  CHECK(m["model"] == "a,b");
  CHECK(m["streaming"] == true);
  CHECK(m["concurrency"] == 4);
  CHECK(m["metrics"]["time_to_first_token"]["p99"] == 30.5);
  CHECK(m["metrics"]["time_to_first_token"]["count"] == 7);
  CHECK(m["metrics"]["time_to_first_token"]["unit"] == "ms");

  CHECK(json::parse(api::results_json(st).dump()) == json::parse(R"({"status":"running","results":null})"));
  proto::ProfileResults final_results = *st.live;
  final_results.set_total_expected(20);
  auto* e = final_results.add_error_summary();
  e->mutable_error_details()->set_code(500);
  e->mutable_error_details()->set_type("Internal Server Error");
  e->mutable_error_details()->set_message("boom");
  e->set_count(1);
  st.on_results(final_results);
  const json r = json::parse(api::results_json(st).dump());
  CHECK(r["status"] == "complete");
  CHECK(r["results"]["completed"] == 8);
  CHECK(r["results"]["records"][0]["tag"] == "time_to_first_token");
  CHECK(r["results"]["error_summary"][0]["count"] == 1);
  CHECK(r["results"]["error_summary"][0]["error_details"]["code"] == 500);
}

TEST_CASE("the HTTP server answers GET and HEAD, refuses other methods") {
  api::HttpServer server("127.0.0.1", 0, [](std::string_view path) {
    if (path == "/x") return api::HttpResponse{200, "text/plain", "hello"};
    return api::HttpResponse{404, "text/plain", "no"};
  });
  const int port = server.port();
  REQUIRE(port > 0);
  auto get = test::http_get(port, "/x?query=1");
  REQUIRE(get);
  CHECK(get->status == 200);
  CHECK(get->body == "hello");
  auto head = test::http_request(port, "HEAD", "/x");
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(head->head.find("Content-Length: 5") != std::string::npos);
  CHECK(test::http_get(port, "/y")->status == 404);
  CHECK(test::http_request(port, "POST", "/x")->status == 405);
  server.stop();
  CHECK_FALSE(test::http_get(port, "/x"));  // nothing listens any more
}

TEST_CASE("a port already in use fails with the address in the message") {
  api::HttpServer first("127.0.0.1", 0, [](std::string_view) { return api::HttpResponse{}; });
  try {
    api::HttpServer second("127.0.0.1", first.port(), [](std::string_view) { return api::HttpResponse{}; });
    FAIL("bound a port in use");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("127.0.0.1:" + std::to_string(first.port())) != std::string::npos);
  }
}

TEST_CASE("ApiServer routes the AIPerf paths and reports readiness by stage") {
  config::RunConfig cfg;
  cfg.endpoint.model_names = {"m"};
  cfg.service.api_port = 0;  // any free port
  api::ApiServer server(cfg);
  const int port = server.port();
  CHECK(test::http_get(port, "/healthz")->body == "ok");
  CHECK(test::http_get(port, "/readyz")->status == 503);
  server.on_stage("running");
  CHECK(test::http_get(port, "/readyz")->status == 200);
  CHECK(test::http_get(port, "/nope")->status == 404);
  proto::RecordsProgress rp;
  rp.set_phase(proto::PHASE_PROFILING);
  rp.set_success_records(3);
  server.on_records_progress(rp);
  auto metrics = test::http_get(port, "/metrics");
  REQUIRE(metrics);
  CHECK(metrics->head.find("Content-Type: text/plain; version=0.0.4") != std::string::npos);
  CHECK(metrics->body.find("aiperf_records_total{model=\"m\",endpoint_type=\"chat\",streaming=\"false\",status=\"success\"} 3\n") !=
        std::string::npos);
  CHECK(json::parse(test::http_get(port, "/api/progress")->body)["system_state"] == "profiling");
  CHECK(json::parse(test::http_get(port, "/api/config")->body).is_object());
  server.finish();
  CHECK_FALSE(test::http_get(port, "/healthz"));
}
