// The fast subset of the fault matrix (tests/bench/fault_matrix.py): aiperf against a mock that
// breaks every response the same way (--fault KIND at 100%), one load mode (concurrency with a
// request count). Every credit must yield exactly one record, every failure an error of the
// fault's named kind, and the run must end within its bound.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

constexpr int kRequests = 6;
constexpr int kConcurrency = 2;

struct Expected {
  std::string type;
  std::optional<int> code;  // the error's HTTP code, none for transport/parse errors
};

struct Outcome {
  aiperf::test::ProfileRun run;
  double seconds = 0;
};

Outcome run_against(const std::vector<std::string>& mock_args, std::vector<std::string> args,
                    int requests = kRequests) {
  const std::string tmp = aiperf::test::make_temp_dir();
  std::vector<std::string> full_mock{"--ttft", "5", "--itl", "1", "--workers", "1", "--random-seed", "3"};
  full_mock.insert(full_mock.end(), mock_args.begin(), mock_args.end());
  MockServer mock(full_mock, tmp);
  std::vector<std::string> full{"--tokenizer", "gpt2", "--model", "m", "--ui-type", "none", "--url", mock.url(),
                                "--endpoint-type", "chat", "--isl", "16", "--osl", "8", "--extra-inputs",
                                "ignore_eos:true", "--concurrency", std::to_string(kConcurrency), "--request-count",
                                std::to_string(requests), "--random-seed", "5", "--no-server-metrics"};
  full.insert(full.end(), args.begin(), args.end());
  const auto start = std::chrono::steady_clock::now();
  Outcome out{aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", 60), 0};
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

// Every request failed with `expected`: exit 1 (no request succeeded), one record per credit,
// the summary counting them all as errors.
void check_all_failed(const Outcome& o, const Expected& expected) {
  INFO(o.run.out << o.run.err);
  CHECK(o.run.exit_code == 1);
  const auto records = o.run.records();
  REQUIRE(records.size() == kRequests);
  for (const json& r : records) {
    REQUIRE(r.contains("error"));
    const json& e = r["error"];
    CHECK(e["type"] == expected.type);
    CHECK_FALSE(e["message"].get<std::string>().empty());
    if (expected.code) {
      CHECK(e["code"] == *expected.code);
    } else {
      CHECK((!e.contains("code") || e["code"].is_null()));
    }
  }
  const json summary = o.run.summary();
  CHECK(summary["error_request_count"]["avg"] == kRequests);
}

}  // namespace

TEST_CASE("fault matrix: reset mid-stream: one ServerDisconnectedError per credit", "[e2e][faults]") {
  const Outcome o = run_against({"--fault", "reset_mid_stream"}, {"--streaming"});
  check_all_failed(o, {"ServerDisconnectedError", std::nullopt});
}

TEST_CASE("fault matrix: 429 with Retry-After: one Too Many Requests per credit, no retry", "[e2e][faults]") {
  const Outcome o = run_against({"--fault", "http_429", "--fault-retry-after", "30"}, {"--streaming"});
  check_all_failed(o, {"Too Many Requests", 429});
  CHECK(o.seconds < 20);  // Retry-After is not waited for
}

TEST_CASE("fault matrix: truncated chunked encoding, streaming and not", "[e2e][faults]") {
  check_all_failed(run_against({"--fault", "truncated_chunked"}, {"--streaming"}),
                   {"ServerDisconnectedError", std::nullopt});
  check_all_failed(run_against({"--fault", "truncated_chunked"}, {}), {"ServerDisconnectedError", std::nullopt});
}

TEST_CASE("fault matrix: a stall mid-stream ends at the request timeout", "[e2e][faults]") {
  const Outcome o = run_against({"--fault", "stall_mid_stream", "--fault-stall-ms", "20000"},
                                {"--streaming", "--request-timeout-seconds", "1"});
  check_all_failed(o, {"TimeoutError", std::nullopt});
  // Three waves of two requests, each cut at 1 s; start-up and shut-down take a few seconds.
  CHECK(o.seconds < 3 * 1.0 + 10);
  for (const json& r : o.run.records()) {
    const double latency_ms = (r["metadata"]["request_end_ns"].get<int64_t>() -
                               r["metadata"]["request_start_ns"].get<int64_t>()) / 1e6;
    CHECK(latency_ms >= 990);
    CHECK(latency_ms < 1500);
  }
}

TEST_CASE("fault matrix: malformed JSON and error events are parse errors of their own kind", "[e2e][faults]") {
  check_all_failed(run_against({"--fault", "malformed_json"}, {"--streaming"}), {"JSONDecodeError", std::nullopt});
  check_all_failed(run_against({"--fault", "malformed_json"}, {}), {"JSONDecodeError", std::nullopt});
  check_all_failed(run_against({"--fault", "error_event"}, {"--streaming"}), {"SSEResponseError", 502});
}

TEST_CASE("fault matrix: a seeded mix: every credit one record, every error named", "[e2e][faults]") {
  const Outcome o = run_against({"--fault", "reset_before_headers:15,http_5xx:15,wrong_content_type:15,huge_event:15",
                                 "--fault-event-bytes", "1000000"},
                                {"--streaming"}, 20);
  INFO(o.run.out << o.run.err);
  CHECK(o.run.exit_code == 0);  // some succeeded
  const auto records = o.run.records();
  REQUIRE(records.size() == 20);
  const std::set<std::string> allowed{"ServerDisconnectedError", "Internal Server Error", "Bad Gateway",
                                      "Service Unavailable", "JSONDecodeError"};
  int errors = 0;
  for (const json& r : records) {
    if (!r.contains("error")) continue;
    ++errors;
    CHECK(allowed.count(r["error"]["type"].get<std::string>()) == 1);
  }
  CHECK(errors > 0);
  CHECK(errors < 20);
  const json summary = o.run.summary();
  CHECK(summary["error_request_count"]["avg"].get<int>() + summary["request_count"]["avg"].get<int>() == 20);
}

// llama.cpp's server closes the connection after each stream although it said keep-alive, so a
// request written on the kept-alive connection meets a FIN (tests/real_server found it). The mock
// imitates it; every request must still succeed.
TEST_CASE("server quirk: closed after each stream despite keep-alive, every request succeeds", "[e2e][faults]") {
  const Outcome o = run_against({"--close-after-stream"}, {"--streaming"}, 40);
  INFO(o.run.out << o.run.err);
  CHECK(o.run.exit_code == 0);
  const auto records = o.run.records();
  REQUIRE(records.size() == 40);
  for (const json& r : records) CHECK_FALSE(r.contains("error"));
  CHECK(o.run.summary()["request_count"]["avg"].get<int>() == 40);
}
