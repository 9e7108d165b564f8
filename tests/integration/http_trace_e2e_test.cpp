// End-to-end: HTTP trace metrics (http_req_*), --export-http-trace and --show-trace-timing
// against the real mock server.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, std::vector<std::string> args) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat",
                                "--random-seed", "1"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120);
}

int64_t as_int(const json& v) { return v.get<int64_t>(); }

}  // namespace

TEST_CASE("one worker, concurrency 1: the first request connects, every later one reuses it", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // Not streaming with raw export: the raw line holds the exact body the mock sent.
  Run run = profile(tmp, {"--url", mock.url(), "--concurrency", "1", "--request-count", "6", "--workers-max", "1",
                          "--export-level", "raw", "--export-http-trace", "--show-trace-timing",
                          "--output-tokens-mean", "8"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<json> recs = run.records();
  REQUIRE(recs.size() == 6);
  std::map<std::string, std::string> body_by_request;
  for (const json& raw : run.lines("profile_export_raw.jsonl")) {
    body_by_request[raw.at("metadata").at("x_request_id")] = raw.at("responses").at(0).at("text");
  }

  int reused = 0, fresh = 0;
  for (const json& r : recs) {
    const json& m = r.at("metrics");
    const json& t = r.at("trace_data");
    const bool is_reused = m.at("http_req_connection_reused").at("value") == 1;
    (is_reused ? reused : fresh)++;
    CHECK(m.at("http_req_connection_reused").at("unit") == "ratio");
    // Bytes received = the body the mock sent (the raw export's text), in KB in the metrics.
    const std::string& body = body_by_request.at(r.at("metadata").at("x_request_id"));
    CHECK(as_int(t.at("response_bytes_total")) == static_cast<int64_t>(body.size()));
    CHECK(t.at("response_headers").at("Content-Length") == std::to_string(body.size()));
    CHECK(m.at("http_req_data_received").at("value").get<double>() == static_cast<double>(body.size()) / 1024);
    CHECK(m.at("http_req_data_received").at("unit") == "KB");
    // The request body is one chunk; bytes sent = its size.
    CHECK(as_int(t.at("request_chunks_count")) == 1);
    CHECK(m.at("http_req_chunks_sent").at("value") == 1);
    CHECK(m.at("http_req_data_sent").at("value").get<double>() == as_int(t.at("request_bytes_total")) / 1024.0);
    int64_t chunk_bytes = 0;
    for (const json& c : t.at("response_chunks")) chunk_bytes += as_int(c[1]);
    CHECK(chunk_bytes == as_int(t.at("response_bytes_total")));
    CHECK(m.at("http_req_chunks_received").at("value") == t.at("response_chunks").size());
    // Phases: the exported durations are the metrics, in ns; the total reconciles.
    CHECK(as_int(t.at("sending_ns")) == as_int(t.at("request_send_end_ns")) - as_int(t.at("request_send_start_ns")));
    CHECK(as_int(t.at("duration_ns")) == as_int(t.at("response_receive_end_ns")) - as_int(t.at("request_send_start_ns")));
    CHECK(m.at("http_req_duration").at("value").get<double>() == as_int(t.at("duration_ns")) / 1e6);
    const double phases = m.at("http_req_blocked").at("value").get<double>() + m.at("http_req_dns_lookup").at("value").get<double>() +
                          m.at("http_req_connecting").at("value").get<double>() + m.at("http_req_sending").at("value").get<double>() +
                          m.at("http_req_waiting").at("value").get<double>() + m.at("http_req_receiving").at("value").get<double>();
    CHECK(m.at("http_req_total").at("value").get<double>() == Approx(phases).epsilon(1e-12));
    CHECK(t.at("trace_type") == "aiohttp");
    CHECK(t.at("response_status_code") == 200);
    CHECK(t.at("remote_ip") == "127.0.0.1");
    CHECK(t.at("remote_port") == mock.port());
    CHECK(as_int(t.at("request_send_start_ns")) >= as_int(r.at("metadata").at("request_start_ns")));
    CHECK_FALSE(t.contains("blocked_ns"));  // no connection limit: never queued
    CHECK(m.at("http_req_blocked").at("value") == 0.0);
    if (is_reused) {
      CHECK(t.contains("connection_reused_ns"));
      CHECK_FALSE(t.contains("tcp_connect_start_ns"));
      CHECK(m.at("http_req_connecting").at("value") == 0.0);
    } else {
      CHECK_FALSE(t.contains("connection_reused_ns"));
      CHECK(as_int(t.at("connecting_ns")) == as_int(t.at("tcp_connect_end_ns")) - as_int(t.at("tcp_connect_start_ns")));
      CHECK(as_int(t.at("tcp_connect_end_ns")) <= as_int(t.at("request_send_start_ns")));
      CHECK_FALSE(t.contains("dns_lookup_start_ns"));  // an IP literal needs no lookup
    }
  }
  CHECK(fresh == 1);
  CHECK(reused == 5);

  const json s = run.summary();
  CHECK(s.at("http_req_connection_reused").at("avg").get<double>() == Approx(5.0 / 6));
  CHECK(s.at("http_req_chunks_sent").at("avg") == 1.0);
  CHECK(s.at("http_req_waiting").at("unit") == "ms");
  // The console: the trace table (not the main one) lists the http_req rows.
  const auto table = run.out.find("NVIDIA AIPerf | HTTP Trace Timing");
  REQUIRE(table != std::string::npos);
  CHECK(run.out.find("HTTP Connection Reused (ratio)", table) != std::string::npos);
  CHECK(run.out.find("HTTP Blocked (ms)") > table);
}

TEST_CASE("without --export-http-trace the metrics are computed but no trace_data is written", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, {"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "4",
                          "--output-tokens-mean", "6"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<json> recs = run.records();
  REQUIRE(recs.size() == 4);
  for (const json& r : recs) {
    CHECK_FALSE(r.contains("trace_data"));
    // Streamed: one body read per SSE message at least, never more reads than bytes.
    CHECK(r.at("metrics").at("http_req_chunks_received").at("value").get<double>() >= 1);
    CHECK(r.at("metrics").at("http_req_waiting").at("value").get<double>() >= 0);
  }
  CHECK(run.out.find("HTTP Trace Timing") == std::string::npos);
  CHECK(run.summary().contains("http_req_total"));
}
