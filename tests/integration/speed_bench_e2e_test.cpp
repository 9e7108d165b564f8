// End-to-end: `aiperf profile --input-file qualitative.jsonl --custom-dataset-type speed-bench-<x>`
// against aiperf-mock-server. Checks inputs.json (one session per question_id of the category, one
// payload per message, roles kept), the records (sequential sampling, every turn of a session in
// order), what the mock received (each turn sent after the previous turns and their answers), and
// the refusals (exit 2, the option or file:line named).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kFixture = std::string(AIPERF_TEST_DATA) + "/datasets/speed_bench/qualitative.jsonl";
const std::string kQ1 = "0c1f6a2e9b7d4e5f8a3b2c1d0e9f8a7b";
const std::string kQ3 = "2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b";

json message(const std::string& role, const std::string& content) { return {{"role", role}, {"content", content}}; }

}  // namespace

TEST_CASE("speed_bench_coding: the category's conversations, turn by turn, sequentially", "[e2e][speed_bench]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "run",
      {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kFixture, "--custom-dataset-type",
       "speed-bench-coding", "--request-count", "6", "--concurrency", "1", "--osl", "7"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 2);
  CHECK(inputs["data"][0]["session_id"] == kQ1);
  CHECK(inputs["data"][1]["session_id"] == kQ3);
  const json& q1 = inputs["data"][0]["payloads"];
  REQUIRE(q1.size() == 2);
  CHECK(q1[0]["messages"] == json::array({message("user", "Write a Python function that reverses a string.")}));
  CHECK(q1[1]["messages"] ==
        json::array({message("user", "Now make it keep combining characters attached to their base letter.")}));
  CHECK(q1[0]["max_completion_tokens"] == 7);
  CHECK(q1[0]["model"] == "m");
  const json& q3 = inputs["data"][1]["payloads"];
  REQUIRE(q3.size() == 2);
  CHECK(q3[0]["messages"] == json::array({message("system", "You are a terse C++ expert.")}));
  CHECK(q3[1]["messages"] == json::array({message("user", "Explain std::move in one sentence.")}));

  // 6 requests: Q1 (2 turns), Q3 (2 turns), Q1 again.
  const auto records = run.records();
  REQUIRE(records.size() == 6);
  std::vector<std::pair<std::string, int>> order;
  for (const auto& r : records) {
    CHECK_FALSE(r.contains("error"));
    order.emplace_back(r["metadata"]["conversation_id"], r["metadata"]["turn_index"]);
  }
  CHECK(order == std::vector<std::pair<std::string, int>>{{kQ1, 0}, {kQ1, 1}, {kQ3, 0}, {kQ3, 1}, {kQ1, 0}, {kQ1, 1}});
  CHECK(run.summary()["request_count"]["avg"] == 6);

  // On the wire a later turn carries the earlier ones and the server's answers.
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 6);
  CHECK(bodies[0]["messages"] == q1[0]["messages"]);
  const json& second = bodies[1]["messages"];
  REQUIRE(second.size() == 3);
  CHECK(second[0] == q1[0]["messages"][0]);
  CHECK(second[1]["role"] == "assistant");
  CHECK(second[2] == q1[1]["messages"][0]);
  CHECK(bodies[2]["messages"] == q3[0]["messages"]);
  REQUIRE(bodies[3]["messages"].size() == 3);
  CHECK(bodies[3]["messages"][0] == q3[0]["messages"][0]);
  CHECK(bodies[3]["messages"][2] == q3[1]["messages"][0]);
}

TEST_CASE("speed_bench_qualitative: every row of the split", "[e2e][speed_bench]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const auto run =
      aiperf::test::run_named(tmp, "run",
                              {"--url", mock.url(), "--endpoint-type", "chat", "--streaming", "--input-file", kFixture,
                               "--custom-dataset-type", "speed_bench_qualitative", "--request-count", "8"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 4);
  std::vector<size_t> turns;
  for (const auto& s : inputs["data"]) turns.push_back(s["payloads"].size());
  CHECK(turns == std::vector<size_t>{2, 1, 2, 3});
  CHECK(run.records().size() == 8);
}

TEST_CASE("speed_bench refusals: no file, placeholder rows, an absent category, detection", "[e2e][speed_bench]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string placeholder = tmp + "/qualitative.jsonl";
  std::ofstream(placeholder) << R"({"question_id": "1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a", "category": "math", )"
                                R"("messages": [{"role": "user", "content": "FULL BENCHMARK DATA SHOULD BE FETCHED )"
                                R"(FROM THE SOURCE USING SPECDEC_BENCH"}]})"
                             << "\n";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--custom-dataset-type", "speed-bench-throughput-8k-mixed"},
       "--custom-dataset-type speed_bench_throughput_8k_mixed requires --input-file: pass SPEED-Bench's throughput_8k "
       "split as JSONL (throughput_8k.jsonl"},
      {{"--input-file", placeholder, "--custom-dataset-type", "speed_bench_math"},
       placeholder + ":1: field 'messages[0].content': is SPEED-Bench's placeholder"},
      {{"--input-file", kFixture, "--custom-dataset-type", "speed_bench_rag"},
       kFixture + ": no row of SPEED-Bench category 'rag'"},
      {{"--input-file", kFixture}, kFixture + ":1: the line fits several dataset types (speed_bench_qualitative, "},
      // AIPerf lists this spelling in its help but refuses it.
      {{"--input-file", kFixture, "--custom-dataset-type", "speed-bench-throughput-1-k"},
       "--custom-dataset-type: speed-bench-throughput-1-k not in"},
  };
  int n = 0;
  for (const auto& c : cases) {
    std::vector<std::string> args{"--url", "http://127.0.0.1:9", "--endpoint-type", "chat"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const std::string name = "refusal" + std::to_string(n++);
    const auto run = aiperf::test::run_named(tmp, name, args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.err, Catch::Contains(c.message));
  }
}
