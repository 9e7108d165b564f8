// Exact concurrency: a run delivers the concurrency it was asked for (as many workers as the
// per-worker connection limit needs) and reports it as peak_in_flight_requests, or refuses.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;

namespace {

// Sets an environment variable for the aiperf runs of one scope.
struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) { ::setenv(name, value, 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  const char* name_;
};

aiperf::test::ProfileRun profile(const std::string& url, std::vector<std::string> more) {
  const std::string tmp = aiperf::test::make_temp_dir();
  std::vector<std::string> args{"--tokenizer", "gpt2", "--model", "m", "--url", url, "--streaming",
                                "--isl", "8", "--osl", "1", "--concurrency", "30", "--request-count", "60"};
  args.insert(args.end(), more.begin(), more.end());
  return aiperf::test::run_profile(tmp + "/artifacts", args, tmp);
}

// Short non-streaming requests with only `load` options.
aiperf::test::ProfileRun profile_load(const std::string& url, std::vector<std::string> load) {
  const std::string tmp = aiperf::test::make_temp_dir();
  std::vector<std::string> args{"--tokenizer", "gpt2", "--model", "m", "--url", url, "--isl", "8", "--osl", "2"};
  args.insert(args.end(), load.begin(), load.end());
  return aiperf::test::run_profile(tmp + "/artifacts", args, tmp);
}

// A run of short requests against a fast mock that records what it received, with each worker
// allowed `connections_per_worker` connections (so the run needs several workers).
struct RecordedRun {
  aiperf::test::ProfileRun run;
  size_t requests_received;
};
RecordedRun run_recorded(const char* connections_per_worker, std::vector<std::string> load) {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  ScopedEnv limit("AIPERF_HTTP_CONNECTION_LIMIT", connections_per_worker);
  auto run = profile_load(mock.url(), std::move(load));
  return {std::move(run), aiperf::test::recorded_bodies(rec).size()};
}

}  // namespace

TEST_CASE("every requested request is on the wire at once: peak in-flight equals the concurrency", "[e2e]") {
  // A 400 ms first token keeps all 30 open together, whatever the scheduling.
  MockServer mock({"--ttft", "400", "--itl", "0"}, aiperf::test::make_temp_dir());
  const auto run = profile(mock.url(), {});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.summary()["request_count"]["avg"] == 60);
  CHECK(run.summary()["peak_in_flight_requests"]["avg"] == 30);
  CHECK(run.summary()["peak_in_flight_requests"]["unit"] == "requests");
  CHECK(run.out.find("Peak In-Flight Requests") != std::string::npos);
}

TEST_CASE("a per-worker connection limit below the concurrency starts more workers, not a queue", "[e2e]") {
  MockServer mock({"--ttft", "400", "--itl", "0"}, aiperf::test::make_temp_dir());
  ScopedEnv limit("AIPERF_HTTP_CONNECTION_LIMIT", "8");
  const auto run = profile(mock.url(), {});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> workers;
  for (const auto& r : run.records()) workers.insert(r["metadata"]["worker_id"].get<std::string>());
  CHECK(workers.size() == 4);  // ceil(30 / 8)
  CHECK(run.summary()["peak_in_flight_requests"]["avg"] == 30);
}

TEST_CASE("a concurrency the allowed workers cannot hold is refused before anything starts", "[e2e]") {
  ScopedEnv limit("AIPERF_HTTP_CONNECTION_LIMIT", "8");
  const auto run = profile("http://127.0.0.1:9", {"--workers-max", "2"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("--concurrency 30 needs 4 worker processes") != std::string::npos);
  CHECK(run.err.find("--workers-max") != std::string::npos);
}

TEST_CASE("local address option: bad or foreign addresses are refused naming the option", "[e2e]") {
  const auto bad = profile("http://127.0.0.1:9", {"--local-address", "10.0.0.300"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("--local-address: '10.0.0.300' is not an IP address") != std::string::npos);
  const auto foreign = profile("http://127.0.0.1:9", {"--local-address", "192.0.2.1"});
  CHECK(foreign.exit_code == 2);
  CHECK(foreign.err.find("--local-address: 192.0.2.1 is not an address of this host") != std::string::npos);
}

TEST_CASE("local address option: connections leave from the given loopback addresses in turn", "[e2e]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  const auto run = profile(mock.url(), {"--local-address", "127.0.0.5-127.0.0.6", "--export-http-trace",
                                        "--connection-reuse-strategy", "never", "--workers-max", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<std::string, int> by_source;
  for (const auto& r : run.records()) ++by_source[r["trace_data"]["local_ip"].get<std::string>()];
  CHECK(by_source == std::map<std::string, int>{{"127.0.0.5", 30}, {"127.0.0.6", 30}});
}

TEST_CASE("sticky-user-sessions: every turn of a conversation on its own connection, a new one per conversation",
          "[e2e]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  const auto run = profile_load(
      mock.url(), {"--concurrency", "4", "--num-sessions", "12", "--session-turns-mean", "3", "--session-turns-stddev",
                   "0", "--export-http-trace", "--connection-reuse-strategy", "sticky-user-sessions"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<std::string, std::set<std::string>> connections;  // conversation -> local ip:port
  int reused = 0, fresh = 0;
  const auto records = run.records();
  REQUIRE(records.size() == 36);
  for (const auto& r : records) {
    const auto& t = r["trace_data"];
    connections[r["metadata"]["x_correlation_id"].get<std::string>()].insert(
        t["local_ip"].get<std::string>() + ":" + std::to_string(t["local_port"].get<int>()));
    const bool was_reused = r["metrics"]["http_req_connection_reused"]["value"].get<int>() == 1;
    CHECK(was_reused == (r["metadata"]["turn_index"].get<int>() > 0));
    (was_reused ? reused : fresh)++;
  }
  CHECK(connections.size() == 12);
  for (const auto& [conversation, used] : connections) CHECK(used.size() == 1);
  CHECK(fresh == 12);  // pooled, later conversations would take over idle connections
  CHECK(reused == 24);
}

TEST_CASE("a mock of several processes shares one port and sums its metrics over all of them", "[e2e]") {
  MockServer mock({"--processes", "3", "--ttft", "1500", "--itl", "0"}, aiperf::test::make_temp_dir());
  const std::string chat = "curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "
                           "'{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                           "\"max_completion_tokens\":1}' " + mock.url() + "/v1/chat/completions";
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += chat + " & ";
  REQUIRE(std::system(("(" + nine + "wait) >/dev/null 2>&1 &").c_str()) == 0);
  // Each scrape reaches one of the processes (the kernel spreads connections over them); every
  // one must report all nine requests, not its own share.
  auto scrape = [&](const std::string& name) {
    FILE* p = popen(("curl -s " + mock.url() + "/metrics").c_str(), "r");
    std::string text;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    pclose(p);
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1.0 : std::stod(text.substr(at + name.size() + 2));
  };
  REQUIRE(aiperf::test::wait_until([&] { return scrape("mock_server_requests_running") == 9; }, 5));
  for (int i = 0; i < 6; ++i) CHECK(scrape("mock_server_requests_running") == 9);
  const std::string answered = "mock_server_requests_total{endpoint=\"/v1/chat/completions\",status=\"200\"}";
  REQUIRE(aiperf::test::wait_until([&] { return scrape(answered) == 9; }, 5));
  for (int i = 0; i < 6; ++i) CHECK(scrape(answered) == 9);
  // SIGTERM to the supervising process stops every server process.
  mock.process().kill_now(SIGTERM);
  REQUIRE(mock.process().wait(10) == 0);
}

// Standby credits (workers refill their own slots): the concurrency stays exact across several
// workers, and every request the server received is one record, once.
TEST_CASE("workers refilling their own slots keep the concurrency exact: 3 workers, 3000 fast requests", "[e2e]") {
  const auto [run, received] = run_recorded("3", {"--concurrency", "9", "--request-count", "3000"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto records = run.records();
  REQUIRE(records.size() == 3000);
  std::set<std::string> workers;
  std::set<int64_t> ids;
  for (const auto& r : records) {
    workers.insert(r["metadata"]["worker_id"].get<std::string>());
    ids.insert(r["metadata"]["session_num"].get<int64_t>());
    CHECK_FALSE(r.contains("error"));
  }
  CHECK(workers.size() == 3);
  CHECK(ids.size() == 3000);
  CHECK(*ids.rbegin() == 2999);  // a request count leaves no credit unsent
  CHECK(run.summary()["peak_in_flight_requests"]["avg"] == 9);
  CHECK(received == 3000);
}

TEST_CASE("a duration run with workers refilling their own slots: no request after the deadline goes unrecorded", "[e2e]") {
  const auto [run, received] = run_recorded("4", {"--concurrency", "8", "--benchmark-duration", "1.5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto records = run.records();
  CHECK(records.size() > 500);
  std::set<int64_t> ids;
  for (const auto& r : records) ids.insert(r["metadata"]["session_num"].get<int64_t>());
  CHECK(ids.size() == records.size());
  CHECK(run.summary()["request_count"]["avg"].get<size_t>() == records.size());
  CHECK(run.summary()["peak_in_flight_requests"]["avg"] == 8);
  // Standbys withdrawn at the deadline were never sent: the server saw exactly the records.
  CHECK(received == records.size());
}
