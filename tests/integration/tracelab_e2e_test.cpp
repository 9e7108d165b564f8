// End-to-end: `aiperf profile --custom-dataset-type tracelab` against aiperf-mock-server. The
// fixture's 7 rounds become 3 sessions (two roots and the subagent joined into claude:aaa), each
// turn sends its whole rebuilt context with the round's output tokens as max tokens, later turns
// wait their recorded idle gap (capped here to 300 ms); a gzipped copy is detected and replays the
// same; a bad row is refused with file and line, exit 2, nothing written.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kTrace = std::string(AIPERF_TEST_DATA) + "/datasets/tracelab/trace.jsonl";

std::vector<int> max_tokens(const json& payloads) {
  std::vector<int> out;
  for (const auto& p : payloads) out.push_back(p["max_completion_tokens"]);
  return out;
}

}  // namespace

TEST_CASE("tracelab replay: sessions, max tokens, whole contexts and capped waits", "[e2e][tracelab]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // --no-fixed-schedule: the named trace would otherwise replay its 40 s of timestamps.
  const auto run = aiperf::test::run_named(tmp, "run",
                                           {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kTrace,
                                            "--custom-dataset-type", "tracelab", "--no-fixed-schedule", "--concurrency",
                                            "3", "--conversation-num", "3", "--inter-turn-delay-cap-seconds", "0.3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 3);
  std::map<std::string, json> payloads;
  for (const auto& s : inputs["data"]) payloads[s["session_id"]] = s["payloads"];
  CHECK(max_tokens(payloads["claude_aaa"]) == std::vector<int>{20, 15, 8});
  CHECK(max_tokens(payloads["claude_aaa::sa:claude_bbb"]) == std::vector<int>{12, 6});
  CHECK(max_tokens(payloads["codex_ccc"]) == std::vector<int>{4, 9});
  CHECK(payloads["claude_aaa"][0]["model"] == "m");
  CHECK(payloads["claude_aaa::sa:claude_bbb"][0]["model"] == "m");  // one --model: every trace model maps to it
  // The context is rebuilt whole on every turn: the second turn resends the first's 4 cached
  // blocks (its partial tail cut), then 1 assistant block (20 output tokens) and the new user text.
  const json& first = payloads["claude_aaa"][0]["messages"];
  const json& second = payloads["claude_aaa"][1]["messages"];
  REQUIRE(second.size() == 3);
  CHECK(second[1]["role"] == "assistant");
  const std::string prefix = second[0]["content"];
  CHECK_FALSE(prefix.empty());
  CHECK(first[0]["content"].get<std::string>().rfind(prefix, 0) == 0);

  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 7);
  const auto records = run.records();
  REQUIRE(records.size() == 7);
  std::map<std::string, std::map<int, std::pair<double, double>>> times;
  for (const auto& r : records) {
    const json& m = r["metadata"];
    CHECK_FALSE(r.contains("error"));
    times[m["conversation_id"]][m["turn_index"]] = {m["request_start_ns"].get<double>() / 1e6,
                                                    m["request_end_ns"].get<double>() / 1e6};
  }
  // Recorded gaps of 18 s, 19 s, 1 s and 28.5 s, each capped to 300 ms.
  auto gap = [&](const std::string& s, int turn) { return times[s][turn].first - times[s][turn - 1].second; };
  for (const auto& [session, turn] : std::vector<std::pair<std::string, int>>{
           {"claude_aaa", 1}, {"claude_aaa", 2}, {"claude_aaa::sa:claude_bbb", 1}, {"codex_ccc", 1}}) {
    INFO(session << " turn " << turn);
    CHECK(gap(session, turn) >= 299.0);
    CHECK(gap(session, turn) < 1200.0);
  }
}

TEST_CASE("tracelab: AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN=false keeps every session a trace", "[e2e][tracelab]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  ::setenv("AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN", "false", 1);
  const auto run = aiperf::test::run_named(
      tmp, "run",
      {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kTrace, "--custom-dataset-type", "tracelab",
       "--no-fixed-schedule", "--ignore-trace-delays", "--conversation-num", "3"});
  ::setenv("AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS", "soon", 1);
  const auto bad =
      aiperf::test::run_named(tmp, "bad", {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kTrace});
  ::unsetenv("AIPERF_DATASET_TRACELAB_SUBAGENT_JOIN");
  ::unsetenv("AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS");
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::set<std::string> sessions;
  const json inputs = run.inputs();  // held: the loop must not run over a destroyed temporary
  for (const auto& s : inputs["data"]) sessions.insert(s["session_id"]);
  CHECK(sessions == std::set<std::string>{"claude_aaa", "claude_bbb", "codex_ccc"});
  CHECK(run.records().size() == 7);
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("AIPERF_DATASET_TRACELAB_MIN_SPAWN_MS: must be an integer >= 0, got 'soon'") != std::string::npos);
}

TEST_CASE("tracelab: a gzipped corpus is detected and replays its 7 rounds", "[e2e][tracelab]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string gz = tmp + "/corpus.jsonl.gz";
  REQUIRE(std::system(("gzip -c '" + kTrace + "' > '" + gz + "'").c_str()) == 0);
  MockServer mock({"--fast"}, tmp);
  const auto run = aiperf::test::run_named(tmp, "run",
                                           {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", gz,
                                            "--concurrency", "1", "--request-count", "7", "--ignore-trace-delays"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.inputs()["data"].size() == 3);
  CHECK(run.records().size() == 7);
}

TEST_CASE("tracelab: a bad row is refused with file and line, nothing written", "[e2e][tracelab]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string bad = tmp + "/bad.jsonl";
  std::ofstream(bad) << R"({"session_id": "s", "round_index": 0, "input_tokens_total": 10, "prefix_tokens": 0, )"
                        R"("newly_append_tokens": 10, "timing_events": [{"event_type": "user_message", )"
                        R"("timestamp": "noon"}]})"
                        "\n";
  const auto run = aiperf::test::run_named(tmp, "bad",
                                           {"--url", "http://127.0.0.1:9", "--endpoint-type", "chat", "--input-file",
                                            bad, "--custom-dataset-type", "tracelab"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("bad.jsonl:1: field 'timing_events[0].timestamp': is not an ISO-8601 time: 'noon'") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(run.dir));
}
