// End-to-end: the real `aiperf` binary against the real `aiperf-mock-server`, over loopback,
// checking the files a user's scripts read.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kAiperf = std::string(AIPERF_BIN_DIR) + "/aiperf";

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, std::vector<std::string> args, double timeout_s = 120) {
  std::vector<std::string> full{"--tokenizer", "gpt2", "--ui-type", "none"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp, "aiperf", timeout_s);
}

}  // namespace

TEST_CASE("streaming chat run writes AIPerf's files with exact token counts", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "5"}, tmp);
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--endpoint-type", "chat", "--streaming",
                          "--concurrency", "4", "--request-count", "40", "--synthetic-input-tokens-mean", "100",
                          "--output-tokens-mean", "12", "--extra-inputs", "ignore_eos:true", "--random-seed", "7"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.out.find("CLI Command: aiperf profile") != std::string::npos);
  // AIPerf 0.13's console: the Effective and Active tables, then the main one; each metric in one.
  const size_t effective = run.out.find("NVIDIA AIPerf | LLM Metrics: Effective\n");
  const size_t active = run.out.find("NVIDIA AIPerf | LLM Metrics: Active\n");
  const size_t main_table = run.out.find("NVIDIA AIPerf | LLM Metrics\n");
  CHECK(effective < active);
  CHECK(active < main_table);
  CHECK(main_table != std::string::npos);
  CHECK(run.out.find("Effective Concurrency (requests)") < active);
  CHECK(run.out.find("Active Total Throughput (tokens/sec)") < main_table);
  CHECK(run.out.find("Time to First Token (ms)") > main_table);

  json s = run.summary();
  CHECK(s["request_count"]["avg"] == 40);
  CHECK(s["input_sequence_length"]["min"] == 100);
  CHECK(s["input_sequence_length"]["max"] == 100);
  CHECK(s["output_sequence_length"]["min"] == 12);
  CHECK(s["output_sequence_length"]["max"] == 12);
  CHECK(s["time_to_first_token"]["min"].get<double>() >= 20.0);  // the mock never answers earlier
  // The last of 12 tokens leaves the mock no earlier than ttft + 11 x itl after the request.
  CHECK(s["request_latency"]["min"].get<double>() >= 20.0 + 11 * 5.0);
  CHECK(s["time_to_first_token"]["unit"] == "ms");
  CHECK(s.contains("error_summary"));

  auto recs = run.records();
  REQUIRE(recs.size() == 40);
  std::set<uint64_t> session_nums;
  for (const auto& r : recs) {
    CHECK(r["metadata"]["benchmark_phase"] == "profiling");
    CHECK(r["metrics"]["input_sequence_length"]["value"] == 100);
    CHECK(r["metrics"]["output_sequence_length"]["value"] == 12);
    CHECK(r["metrics"]["inter_chunk_latency"]["value"].size() == 11);
    CHECK_FALSE(r.contains("error"));
    session_nums.insert(r["metadata"]["session_num"].get<uint64_t>());
  }
  CHECK(session_nums.size() == 40);  // every credit produced exactly one record

  json inputs = json::parse(read_file(run.dir + "/inputs.json"));
  REQUIRE(inputs["data"].size() == 100);
  CHECK(inputs["data"][0]["payloads"][0]["stream"] == true);
  CHECK(inputs["data"][0]["payloads"][0]["ignore_eos"] == true);
  CHECK(inputs["data"][0]["payloads"][0]["max_completion_tokens"] == 12);
  CHECK(std::filesystem::exists(run.dir + "/profile_export_aiperf.csv"));
  CHECK(read_file(run.dir + "/logs/aiperf.log").find(" - INFO - ") != std::string::npos);
}

TEST_CASE("same seed gives byte-identical inputs.json", "[e2e]") {
  const std::string tmp1 = aiperf::test::make_temp_dir(), tmp2 = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp1);
  std::vector<std::string> args{"--model", "m", "--url", mock.url(), "--request-count", "4", "--concurrency", "2",
                                "--num-dataset-entries", "5", "--random-seed", "42", "--isl", "30"};
  Run a = profile(tmp1, args), b = profile(tmp2, args);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  CHECK(read_file(a.dir + "/inputs.json") == read_file(b.dir + "/inputs.json"));
}

TEST_CASE("non-streaming completions run", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--endpoint-type", "completions", "--request-count",
                          "20", "--concurrency", "2", "--isl", "50", "--osl", "8", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  json s = run.summary();
  CHECK(s["request_count"]["avg"] == 20);
  CHECK(s["output_sequence_length"]["avg"] == 8);
  CHECK_FALSE(s.contains("time_to_first_token"));  // streaming-only metric
  CHECK(run.records().size() == 20);
}

TEST_CASE("every request failing: error records, error summary, exit code 1", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast", "--error-rate", "100"}, tmp);
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--request-count", "10", "--concurrency", "2"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  json s = run.summary();
  CHECK(s["error_request_count"]["avg"] == 10);
  REQUIRE(s["error_summary"].size() == 1);
  CHECK(s["error_summary"][0]["count"] == 10);
  CHECK(s["error_summary"][0]["error_details"]["code"] == 500);
  auto recs = run.records();
  REQUIRE(recs.size() == 10);
  for (const auto& r : recs) CHECK(r["error"]["code"] == 500);
}

TEST_CASE("connection refused becomes error records and the run ends", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const int port = aiperf::test::free_port_range(1);
  Run run = profile(tmp, {"--model", "m", "--url", "http://127.0.0.1:" + std::to_string(port), "--request-count", "6",
                          "--concurrency", "2"});
  CHECK(run.exit_code == 1);
  auto recs = run.records();
  REQUIRE(recs.size() == 6);
  for (const auto& r : recs) CHECK(r["error"]["type"] == "ClientConnectorError");
}

TEST_CASE("killing the server mid-run: sent = completed + errors", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  auto mock = std::make_unique<MockServer>(std::vector<std::string>{"--ttft", "5", "--itl", "5"}, tmp);
  const std::string dir = tmp + "/artifacts";
  Process p(kAiperf,
            {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--model", "m", "--url", mock->url(),
             "--streaming", "--request-count", "400", "--concurrency", "4", "--osl", "20", "--extra-inputs",
             "ignore_eos:true"},
            tmp, "aiperf");
  // Kill the server once some records exist, so the run has successes and failures.
  REQUIRE(aiperf::test::wait_until([&] { return read_lines(dir + "/profile_export.jsonl").size() >= 20; }, 60));
  mock->process().kill_now();
  auto rc = p.wait(120);
  REQUIRE(rc.has_value());
  json s = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  const int ok = s["request_count"]["avg"].get<int>();
  const int failed = s["error_request_count"]["avg"].get<int>();
  CHECK(ok >= 20);
  CHECK(failed > 0);
  CHECK(ok + failed == 400);
  CHECK(read_lines(dir + "/profile_export.jsonl").size() == 400);
}

TEST_CASE("a worker started separately over tcp joins the run", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const int base = aiperf::test::free_port_range(7);
  const std::string dir = tmp + "/artifacts";
  Process controller(kAiperf,
                     {"profile", "--artifact-dir", dir, "--tokenizer", "gpt2", "--model", "m", "--url", mock.url(),
                      "--request-count", "30", "--concurrency", "3", "--zmq-host", "127.0.0.1", "--zmq-base-port",
                      std::to_string(base), "--workers-max", "0", "--workers-remote", "1"},
                     tmp, "aiperf");
  Process worker(kAiperf, {"worker", "--controller", "tcp://127.0.0.1:" + std::to_string(base), "--service-id", "remote_worker_1"},
                 tmp, "worker");
  auto rc = controller.wait(120);
  INFO(controller.out() << controller.err() << worker.err());
  REQUIRE(rc.has_value());
  CHECK(*rc == 0);
  auto lines = read_lines(dir + "/profile_export.jsonl");
  REQUIRE(lines.size() == 30);
  for (const auto& l : lines) CHECK(json::parse(l)["metadata"]["worker_id"] == "remote_worker_1");
  CHECK(worker.wait(30).has_value());  // the worker exits when the controller shuts the run down
}

TEST_CASE("invalid options: exit 2 naming the option, nothing written", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  Run bad_type = profile(tmp, {"--model", "m", "--endpoint-type", "bogus"});
  CHECK(bad_type.exit_code == 2);
  CHECK(bad_type.err.find("--endpoint-type") != std::string::npos);
  Run bad_count = profile(tmp, {"--model", "m", "--concurrency", "10", "--request-count", "5"});
  CHECK(bad_count.exit_code == 2);
  CHECK(bad_count.err.find("--concurrency") != std::string::npos);
  Run unknown = profile(tmp, {"--model", "m", "--no-such-option"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("--no-such-option") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(tmp + "/artifacts"));
}

namespace {
// Output tokens a mock server generated so far, from its Prometheus /metrics.
long generated_tokens(const MockServer& mock) {
  FILE* p = popen(("curl -s " + mock.url() + "/metrics").c_str(), "r");
  std::string text;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  pclose(p);
  const std::string key = "\nmock_server_generation_tokens_total ";
  const size_t at = text.find(key);
  return at == std::string::npos ? -1 : std::stol(text.substr(at + key.size()));
}
}  // namespace

TEST_CASE("several --url values share the sessions round robin", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string tmp_b = aiperf::test::make_temp_dir();
  MockServer a({"--fast"}, tmp), b({"--fast"}, tmp_b);
  Run run = profile(tmp, {"--model", "m", "--url", a.url(), "--url", b.url(), "--request-count", "20", "--concurrency",
                          "2", "--isl", "20", "--osl", "4", "--extra-inputs", "ignore_eos:true"});
  REQUIRE(run.exit_code == 0);
  CHECK(generated_tokens(a) == 40);
  CHECK(generated_tokens(b) == 40);
}

TEST_CASE("multi-turn sessions resend their history with the assistant's answers", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--streaming", "--session-turns-mean", "3",
                          "--num-dataset-entries", "4", "--request-count", "12", "--concurrency", "2", "--isl", "20",
                          "--osl", "5", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<std::string, std::map<int, int>> isl_by_session;  // session -> turn -> ISL
  for (const auto& r : run.records()) {
    isl_by_session[r["metadata"]["x_correlation_id"]][r["metadata"]["turn_index"]] =
        r["metrics"]["input_sequence_length"]["value"];
  }
  // --request-count counts turns, so the last sessions may be cut short (AIPerf semantics).
  size_t total = 0, complete_sessions = 0;
  for (const auto& [session, turns] : isl_by_session) {
    total += turns.size();
    complete_sessions += turns.size() == 3;
    CHECK(turns.at(0) == 20);
    // Turn k carries turns 0..k-1 and k answers of 5 tokens: strictly longer each time.
    if (turns.count(1)) CHECK(turns.at(1) >= 20 + 5 + 20 - 2);
    if (turns.count(2)) CHECK(turns.at(2) >= turns.at(1) + 5 + 20 - 2);
  }
  CHECK(total == 12);
  CHECK(complete_sessions >= 2);
}

TEST_CASE("duration run against a stalled server ends after the grace period with cancelled records", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "600000"}, tmp);  // first token after 10 minutes: a stalled server
  const auto start = std::chrono::steady_clock::now();
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--streaming", "--concurrency", "3",
                          "--benchmark-duration", "1", "--benchmark-grace-period", "1", "--isl", "10"});
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);  // nothing succeeded
  CHECK(elapsed < 30);        // duration + grace + shutdown, far from the server's 10 minutes
  auto recs = run.records();
  REQUIRE(recs.size() == 3);
  for (const auto& r : recs) {
    CHECK(r["error"]["code"] == 499);
    CHECK(r["error"]["type"] == "RequestCancellationError");
    CHECK(r["metadata"]["was_cancelled"] == true);
  }
}

TEST_CASE("services that miss the configure and start commands get them again and the run completes", "[e2e]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // Every service ignores the first configure and the first start it receives, as when a
  // published command overtakes the subscription that would have delivered it.
  ::setenv("AIPERF_TEST_DROP_FIRST_COMMANDS", "configure,start", 1);
  Run run = profile(tmp, {"--model", "m", "--url", mock.url(), "--request-count", "12", "--concurrency", "2",
                          "--isl", "10", "--osl", "3"});
  ::unsetenv("AIPERF_TEST_DROP_FIRST_COMMANDS");
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.records().size() == 12);
  const std::string log = read_file(run.dir + "/logs/aiperf.log");
  // Every service (two workers on two CPUs or more) dropped both commands once.
  size_t dropped = 0, services = 0;
  for (size_t pos = 0; (pos = log.find("(fault injection)", pos)) != std::string::npos; ++pos) ++dropped;
  for (size_t pos = 0; (pos = log.find(" - INFO - registered ", pos)) != std::string::npos; ++pos) ++services;
  CHECK(services >= 6);
  CHECK(dropped == 2 * services);
}
