// End-to-end: burst_gpt_trace, raw_payload and inputs_json files against aiperf-mock-server,
// checking what the mock received (--record-requests), when, inputs.json and the records.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";
using Run = aiperf::test::ProfileRun;

std::vector<json> sorted_records(const Run& run) {
  auto records = run.records();
  std::sort(records.begin(), records.end(), [](const json& a, const json& b) {
    return a["metadata"]["request_start_ns"] < b["metadata"]["request_start_ns"];
  });
  return records;
}

}  // namespace

TEST_CASE("burst_gpt_trace CSV with --fixed-schedule: each row once at its timestamp", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = aiperf::test::run_named(tmp, "run", {"--url", mock.url(), "--input-file", kData + "burst_gpt.csv",
                                                 "--fixed-schedule", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 3);  // the row without Response tokens is skipped
  std::vector<int64_t> max_tokens;
  for (const auto& b : bodies) max_tokens.push_back(b["max_completion_tokens"]);
  CHECK(max_tokens == std::vector<int64_t>{3, 4, 2});

  const auto records = sorted_records(run);
  REQUIRE(records.size() == 3);
  const int64_t isl[] = {20, 30, 25};
  const int64_t t0 = records[0]["metadata"]["intended_start_ns"];
  const int64_t offsets_ms[] = {0, 500, 2000};  // Timestamp seconds -> ms
  for (size_t i = 0; i < 3; ++i) {
    CHECK(records[i]["metrics"]["input_sequence_length"]["value"] == isl[i]);
    CHECK(records[i]["metadata"]["intended_start_ns"].get<int64_t>() - t0 == offsets_ms[i] * 1'000'000);
    CHECK_FALSE(records[i].contains("error"));
  }
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 3);
  CHECK(inputs["data"][1]["payloads"][0]["max_completion_tokens"] == 4);
}

TEST_CASE("raw_payload file: bodies sent byte for byte, whatever the options", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = aiperf::test::run_named(tmp, "run", {"--url", mock.url(), "--input-file", kData + "raw_payload.jsonl",
                                                 "--custom-dataset-type", "raw_payload", "--request-count", "4",
                                                 "--concurrency", "1", "--extra-inputs", "seed:7", "--osl", "9"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 4);  // sequential: file order, wrapping
  const json first = json::parse(R"({"model": "m", "messages": [{"role": "user", "content": "Say hello."}],
                                      "max_tokens": 4, "temperature": 0.5})");
  const json second = json::parse(R"({"messages": [{"role": "system", "content": "Be brief."},
      {"role": "user", "content": "Name a colour."}], "model": "m", "max_completion_tokens": 2})");
  CHECK(bodies[0] == first);  // no stream, no --extra-inputs, no --osl: the body as written
  CHECK(bodies[1] == second);
  CHECK(bodies[2] == first);
  CHECK(bodies[3] == second);
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 2);
  CHECK(inputs["data"][0]["payloads"][0] == first);
  CHECK(inputs["data"][1]["payloads"][0] == second);
  // Input tokens counted from the body's message texts (gpt2): "Say hello." and "Be brief. Name a colour."
  const auto records = sorted_records(run);
  REQUIRE(records.size() == 4);
  CHECK(records[0]["metrics"]["input_sequence_length"]["value"] == 3);
  CHECK(records[1]["metrics"]["input_sequence_length"]["value"] == 7);
}

TEST_CASE("raw_payload directory and inputs_json: multi-turn sessions replayed in order", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // Auto-detected from the .json file's shape.
  Run run = aiperf::test::run_named(tmp, "inputs", {"--url", mock.url(), "--input-file", kData + "inputs_json.json",
                                                    "--request-count", "3", "--concurrency", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 3);
  CHECK(bodies[0] == json::parse(R"({"messages": [{"role": "user", "content": "one"}], "model": "m",
                                      "stream": false, "max_tokens": 3})"));
  CHECK(bodies[1]["messages"].size() == 3);  // the recorded second turn, not our history
  CHECK(bodies[1]["messages"][1]["content"] == "uno");
  CHECK(bodies[2]["messages"][0]["content"] == "three");
  std::map<std::string, int> turns_per_session;
  for (const auto& r : run.records()) ++turns_per_session[r["metadata"]["conversation_id"]];
  CHECK(turns_per_session == std::map<std::string, int>{{"s-alpha", 2}, {"s-beta", 1}});
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 2);
  CHECK(inputs["data"][0]["session_id"] == "s-alpha");
  CHECK(inputs["data"][0]["payloads"].size() == 2);

  Run dir = aiperf::test::run_named(tmp, "dir", {"--url", mock.url(), "--input-file", kData + "raw_payload_dir",
                                                 "--request-count", "3", "--concurrency", "1"});
  INFO(dir.out << dir.err);
  REQUIRE(dir.exit_code == 0);
  bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 6);
  CHECK(bodies[3]["messages"][0]["content"] == "first turn");
  CHECK(bodies[4]["messages"][2]["content"] == "second turn");
  CHECK(bodies[5]["messages"][0]["content"] == "second session");
}

TEST_CASE("replay formats: bad files fail before anything runs, exit 2", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // A bare messages line fits two formats, as in AIPerf.
  Run ambiguous = aiperf::test::run_named(tmp, "ambiguous", {"--url", "http://127.0.0.1:1", "--input-file",
                                                             kData + "raw_payload.jsonl"});
  CHECK(ambiguous.exit_code == 2);
  CHECK(ambiguous.err.find("raw_payload.jsonl:1: the line fits several dataset types (mooncake_trace, raw_payload)") !=
        std::string::npos);
  CHECK_FALSE(std::filesystem::exists(ambiguous.dir));
  Run wrong = aiperf::test::run_named(tmp, "wrong", {"--url", "http://127.0.0.1:1", "--input-file",
                                                     kData + "burst_gpt.csv", "--custom-dataset-type", "raw_payload"});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("burst_gpt.csv:1: invalid JSON") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(wrong.dir));
}

TEST_CASE("option no-fixed-schedule keeps the chosen load mode for a timestamped trace", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  // Without it the 3 stamped entries are replayed once each; with it the trace wraps at concurrency 1.
  Run replay = aiperf::test::run_named(tmp, "replay", {"--url", mock.url(), "--input-file",
                                                       kData + "mooncake_timestamps.jsonl",
                                                       "--custom-dataset-type", "mooncake_trace"});
  INFO(replay.out << replay.err);
  REQUIRE(replay.exit_code == 0);
  CHECK(replay.records().size() == 3);
  Run closed = aiperf::test::run_named(tmp, "closed", {"--url", mock.url(), "--input-file",
                                                       kData + "mooncake_timestamps.jsonl", "--no-fixed-schedule",
                                                       "--request-count", "5", "--concurrency", "1"});
  INFO(closed.out << closed.err);
  REQUIRE(closed.exit_code == 0);
  const auto records = sorted_records(closed);
  REQUIRE(records.size() == 5);
  // Closed loop: each request starts only after the previous one ended (no 30 ms schedule gaps needed).
  for (size_t i = 1; i < records.size(); ++i)
    CHECK(records[i]["metadata"]["request_start_ns"] >= records[i - 1]["metadata"]["request_end_ns"]);
}

TEST_CASE("sagemaker_data_capture: captured messages replayed on their capture times", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = aiperf::test::run_named(tmp, "run", {"--url", mock.url(), "--input-file",
                                                 kData + "sagemaker_capture.jsonl", "--fixed-schedule"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 3);
  CHECK(bodies[0] == json::parse(R"({"messages": [{"role": "system", "content": "Be brief."},
      {"role": "user", "content": "Hello"}], "model": "m", "stream": false, "max_completion_tokens": 3})"));
  CHECK(bodies[1]["messages"][0]["content"] == "Second request.");
  CHECK(bodies[1]["max_completion_tokens"] == 4);
  CHECK(bodies[2]["tools"] == json::parse(R"([{"type": "function", "function": {"name": "f"}}])"));
  const auto records = sorted_records(run);
  REQUIRE(records.size() == 3);
  const int64_t t0 = records[0]["metadata"]["intended_start_ns"];
  CHECK(records[1]["metadata"]["intended_start_ns"].get<int64_t>() - t0 == 750'000'000);
  CHECK(records[2]["metadata"]["intended_start_ns"].get<int64_t>() - t0 == 2'500'000'000);
  // Input tokens from the captured messages and tool schema, as AIPerf counts them (gpt2):
  // "Be brief. Hello" 4, "Second request." 3, "Call a tool. f" 5.
  CHECK(records[0]["metrics"]["input_sequence_length"]["value"] == 4);
  CHECK(records[1]["metrics"]["input_sequence_length"]["value"] == 3);
  CHECK(records[2]["metrics"]["input_sequence_length"]["value"] == 5);
}
