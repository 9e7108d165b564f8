// End-to-end: `aiperf profile --custom-dataset-type dag_jsonl` against aiperf-mock-server. With
// no bound each root session runs once (3 requests for the 2 sessions of the linear fixture); the
// second turn resends the first with the mock's answer threaded in, as AIPerf 0.13 sent it;
// inputs.json holds each turn's own messages; the authored delay holds the turn back. A branching
// file is refused with exit 2 and nothing written.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/dag_jsonl";

}  // namespace

TEST_CASE("dag_jsonl: one run per root, deltas with the answers threaded in, the turn delay", "[e2e][dag]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "run",
      {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kDir + "/linear.jsonl", "--custom-dataset-type",
       "dag_jsonl", "--concurrency", "1", "--osl", "7", "--random-seed", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  // inputs.json: each turn's own messages and body fields.
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 2);
  std::map<std::string, json> payloads;
  for (const auto& s : inputs["data"]) payloads[s["session_id"]] = s["payloads"];
  REQUIRE(payloads["a"].size() == 2);
  CHECK(payloads["a"][0]["messages"] == json::parse(R"([{"role": "system", "content": "You are terse."},
                                                       {"role": "user", "content": "Hello there"}])"));
  CHECK(payloads["a"][1]["messages"] == json::parse(R"([{"role": "user", "content": "And again"}])"));
  CHECK(payloads["a"][1]["temperature"] == 0.5);
  CHECK(payloads["a"][1]["max_completion_tokens"] == 3);
  REQUIRE(payloads["b"].size() == 1);
  CHECK(payloads["b"][0]["model"] == "other");
  CHECK(payloads["b"][0]["max_completion_tokens"] == 7);  // --osl for a turn without max_tokens

  // On the wire: a's second turn carries its first turn, the mock's answer, then its own message.
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 3);
  const json* second = nullptr;
  for (const auto& b : bodies)
    if (b["messages"].size() == 4) second = &b;
  REQUIRE(second != nullptr);
  CHECK((*second)["messages"][0]["role"] == "system");
  CHECK((*second)["messages"][2]["role"] == "assistant");
  CHECK_FALSE((*second)["messages"][2]["content"].get<std::string>().empty());
  CHECK((*second)["messages"][3] == json::parse(R"({"role": "user", "content": "And again"})"));

  const auto records = run.records();
  REQUIRE(records.size() == 3);
  std::map<std::string, std::map<int, std::pair<double, double>>> times;  // session -> turn -> (start, end) ms
  for (const auto& r : records) {
    const json& m = r["metadata"];
    CHECK_FALSE(r.contains("error"));
    times[m["conversation_id"]][m["turn_index"]] = {m["request_start_ns"].get<double>() / 1e6,
                                                    m["request_end_ns"].get<double>() / 1e6};
  }
  // The second turn's "delay": 100 ms after the first answer.
  CHECK(times["a"][1].first - times["a"][0].second >= 99.0);
  CHECK(times["a"][1].first - times["a"][0].second < 1000.0);
}

TEST_CASE("dag_jsonl spawns: children after the spawning turn, joins hold the parent's turns", "[e2e][dag]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--ttft", "20", "--itl", "5"}, tmp);
  // One root (root, 3 turns): w4 before its first turn; w1 (joined on turn 1) and w2 (2 turns,
  // joined on turn 2) after turn 0; w3 after its last turn, unjoined.
  const auto run =
      aiperf::test::run_named(tmp, "run",
                              {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kDir + "/spawn.jsonl",
                               "--custom-dataset-type", "dag_jsonl", "--concurrency", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto records = run.records();
  REQUIRE(records.size() == 8);                                           // every turn of the one root's tree, once
  std::map<std::string, std::map<int, std::pair<double, double>>> times;  // conversation -> turn -> (start, end) ms
  std::map<std::string, std::string> session;                             // conversation -> x_correlation_id
  for (const auto& r : records) {
    const json& m = r["metadata"];
    CHECK_FALSE(r.contains("error"));
    times[m["conversation_id"]][m["turn_index"]] = {m["request_start_ns"].get<double>() / 1e6,
                                                    m["request_end_ns"].get<double>() / 1e6};
    session[m["conversation_id"]] = m["x_correlation_id"];
  }
  auto start = [&](const std::string& c, int t) { return times.at(c).at(t).first; };
  auto end = [&](const std::string& c, int t) { return times.at(c).at(t).second; };
  CHECK(times.size() == 5);
  CHECK(session.size() == 5);
  CHECK(start("w1", 0) >= end("root", 0));
  CHECK(start("w2", 0) >= end("root", 0));
  CHECK(start("root", 1) >= end("w1", 0));  // the join of w1
  CHECK(start("root", 1) < end("w2", 1));   // not of w2, joined later
  CHECK(start("root", 2) >= end("w2", 1));
  CHECK(start("root", 2) >= end("root", 1));
  CHECK(start("w3", 0) >= end("root", 2));
  CHECK(start("w4", 0) < end("root", 0));  // pre-session: alongside the first turn
  CHECK(run.summary()["request_count"]["avg"] == 8);
}

TEST_CASE("dag_jsonl fork: the child continues its parent's whole context on the wire", "[e2e][dag]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // root spawns w1, w2 after turn 0 (joined on turn 1); its last turn forks f1.
  const auto run =
      aiperf::test::run_named(tmp, "run",
                              {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kDir + "/branch.jsonl",
                               "--custom-dataset-type", "dag_jsonl", "--concurrency", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.records().size() == 6);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 6);
  const json& forked = bodies.back();  // f1 goes after root's last turn, the last request of the run
  REQUIRE(forked["messages"].size() == 5);
  CHECK(forked["messages"][0] == json::parse(R"({"role": "user", "content": "plan it"})"));
  CHECK(forked["messages"][1]["role"] == "assistant");
  CHECK(forked["messages"][2] == json::parse(R"({"role": "user", "content": "merge"})"));
  CHECK(forked["messages"][3]["role"] == "assistant");
  CHECK(forked["messages"][4] == json::parse(R"({"role": "user", "content": "forked"})"));
  // root's last turn resent its first with the answer: the fork carries that same answer.
  int merges = 0;
  for (const auto& b : bodies)
    if (b["messages"].size() == 3 && b["messages"][2]["content"] == "merge") {
      ++merges;
      CHECK(b["messages"][1] == forked["messages"][1]);
    }
  CHECK(merges == 1);
}

TEST_CASE("dag_jsonl: an orchestrator file or a bad line is refused, nothing written", "[e2e][dag]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string bad = tmp + "/bad.jsonl";
  std::ofstream(bad) << R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "q"}]}]})"
                        "\n"
                     << R"({"session_id": "b", "turns": [{"messages": [{"role": "user"}], "max_tokens": 0}]})"
                        "\n";
  const std::string orchestrator = tmp + "/orchestrator.jsonl";
  std::ofstream(orchestrator) << R"({"session_id": "o", "orchestrator": true, "spawns": ["a"]})"
                                 "\n"
                              << R"({"session_id": "a", "turns": [{"messages": [{"role": "user", "content": "q"}]}]})"
                                 "\n";
  struct Case {
    std::string file, message;
  };
  const std::vector<Case> cases{
      {orchestrator, "orchestrator.jsonl:1: session 'o': an orchestrator conversation"},
      {bad, "bad.jsonl:2: field 'turns.0.max_tokens': must be >= 1, got 0"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string name = "bad" + std::to_string(n++);
    const auto run = aiperf::test::run_named(tmp, name,
                                             {"--url", "http://127.0.0.1:9", "--endpoint-type", "chat", "--input-file",
                                              c.file, "--custom-dataset-type", "dag_jsonl"});
    INFO(name << ": " << run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(c.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(run.dir));
  }
}
