// End-to-end: --input-file in every custom format against aiperf-mock-server, checking what
// the mock received (--record-requests), inputs.json and the per-request records.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  return aiperf::test::run_named(tmp, name, args);
}

// The bodies the mock received, in arrival order.
std::vector<json> requests(const std::string& file) { return aiperf::test::recorded_bodies(file); }

}  // namespace

TEST_CASE("single_turn file: every line sent once, text and multimodal parts", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", kData + "single_turn.jsonl",
                                 "--request-count", "3", "--concurrency", "1", "--random-seed", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 3);  // shuffle: each of the 3 conversations exactly once
  std::set<std::string> first_texts;
  for (const auto& body : bodies) {
    CHECK(body["model"] == "m");
    CHECK(body["stream"] == false);
    const json& content = body["messages"][0]["content"];
    first_texts.insert(content.is_string() ? content.get<std::string>() : content[0]["text"].get<std::string>());
    if (content.is_array()) {
      CHECK(body["messages"][0] == json::parse(R"({"role": "user", "content": [
          {"type": "text", "text": "Describe this picture."}, {"type": "text", "text": "Be brief."},
          {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}]})"));
    } else {
      CHECK(body["messages"][0].size() == 2);  // role and content: no "name" (AIPerf 0.13)
      CHECK(body["messages"][0]["role"] == "user");
    }
  }
  CHECK(first_texts == std::set<std::string>{"What is deep learning?", "Explain attention in one sentence.",
                                             "Describe this picture."});

  // inputs.json follows the file's order.
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 3);
  CHECK(inputs["data"][0]["payloads"][0] == json::parse(R"({"messages": [{"role": "user",
      "content": "What is deep learning?"}], "model": "m", "stream": false})"));
  for (const auto& r : run.records()) CHECK_FALSE(r.contains("error"));
}

TEST_CASE("multi_turn file: the second turn carries the history and --osl max tokens", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", kData + "multi_turn.jsonl",
                                 "--request-count", "2", "--concurrency", "1", "--osl", "4",
                                 "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0]["messages"].size() == 1);
  REQUIRE(bodies[1]["messages"].size() == 3);
  CHECK(bodies[1]["messages"][0]["content"] == "Hi there");
  CHECK(bodies[1]["messages"][1]["role"] == "assistant");
  CHECK(bodies[1]["messages"][2]["content"] == "Tell me more");
  // The file's turns have no output_length: every turn gets --osl, as in AIPerf.
  for (const auto& body : bodies) {
    CHECK(body["max_completion_tokens"] == 4);
    CHECK_FALSE(body.contains("max_tokens"));
  }
  const json inputs = run.inputs();
  CHECK(inputs["data"][0]["session_id"] == "chat-1");
  REQUIRE(inputs["data"][0]["payloads"].size() == 2);
  for (const auto& payload : inputs["data"][0]["payloads"]) CHECK(payload["max_completion_tokens"] == 4);
}

TEST_CASE("multi_turn file: a turn's output_length wins over --osl, legacy max_tokens", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  const std::string file = tmp + "/multi_turn_osl.jsonl";
  std::ofstream(file) << R"({"session_id": "s1", "turns": [{"text": "One", "output_length": 2}, {"text": "Two"}]})"
                      << "\n";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", file, "--custom-dataset-type", "multi_turn",
                                 "--request-count", "2", "--concurrency", "1", "--osl", "5",
                                 "--use-legacy-max-tokens"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 2);
  CHECK(bodies[0]["max_tokens"] == 2);
  CHECK(bodies[1]["max_tokens"] == 5);
  CHECK_FALSE(bodies[1].contains("max_completion_tokens"));
  const json payloads = run.inputs()["data"][0]["payloads"];
  REQUIRE(payloads.size() == 2);
  CHECK(payloads[0]["max_tokens"] == 2);
  CHECK(payloads[1]["max_tokens"] == 5);
}

TEST_CASE("mooncake_trace file: text_input, input_length, hash_ids and verbatim messages", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", kData + "mooncake_trace.jsonl",
                                 "--request-count", "4", "--concurrency", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 4);  // sequential sampling: file order
  CHECK(bodies[0]["messages"][0]["content"] == "Hello there");
  CHECK(bodies[0]["max_completion_tokens"] == 5);
  CHECK(bodies[1]["max_completion_tokens"] == 6);
  CHECK(bodies[2]["max_completion_tokens"] == 7);
  CHECK(bodies[3] == json::parse(R"({"messages": [{"role": "system", "content": "Be terse."},
      {"role": "user", "content": "Hi"}], "model": "m", "stream": false, "max_completion_tokens": 4,
      "tools": [{"type": "function", "function": {"name": "f"}}]})"));

  auto records = run.records();
  REQUIRE(records.size() == 4);
  std::sort(records.begin(), records.end(), [](const json& a, const json& b) {
    return a["metadata"]["request_start_ns"] < b["metadata"]["request_start_ns"];
  });
  CHECK(records[1]["metrics"]["input_sequence_length"]["value"] == 40);  // exact synthetic prompt
  for (const auto& r : records) CHECK_FALSE(r.contains("error"));
}

TEST_CASE("mooncake_trace with timestamps replays as a fixed schedule when the type is named", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", kData + "mooncake_timestamps.jsonl",
                                 "--custom-dataset-type", "mooncake_trace"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(requests(rec).size() == 3);
  CHECK(run.records().size() == 3);
  // Detected rather than named: AIPerf 0.13 keeps its default load (concurrency 1, 10 requests).
  Run detected = profile(tmp, "detected", {"--url", mock.url(), "--input-file", kData + "mooncake_timestamps.jsonl"});
  INFO(detected.out << detected.err);
  REQUIRE(detected.exit_code == 0);
  CHECK(detected.records().size() == 10);
}

TEST_CASE("random_pool directory: the same seed gives a byte-identical inputs.json", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  std::vector<std::string> args{"--url", mock.url(), "--input-file", kData + "random_pool",
                                "--conversation-num", "6", "--concurrency", "2", "--random-seed", "11"};
  Run a = profile(tmp, "a", args);
  Run b = profile(tmp, "b", args);
  INFO(a.out << a.err << b.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const std::string text = read_file(a.dir + "/inputs.json");
  CHECK(text == read_file(b.dir + "/inputs.json"));
  const json inputs = json::parse(text);
  REQUIRE(inputs["data"].size() == 6);
  for (const auto& entry : inputs["data"]) {
    const json& parts = entry["payloads"][0]["messages"][0]["content"];
    REQUIRE(parts.size() == 2);  // one passage + one query per conversation
    CHECK(parts[1]["text"].get<std::string>().rfind("What is a ", 0) == 0);
  }
  CHECK(a.records().size() == 6);
}

TEST_CASE("a corrupted line fails before anything runs: file:line and field, exit 2", "[e2e][datasets]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string file = kData + "corrupt_single_turn.jsonl";
  Run run = profile(tmp, "run", {"--url", "http://127.0.0.1:1", "--input-file", file});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find(file + ":2: field 'text': must be a string, got array") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(run.dir));  // nothing half-written

  Run typed = profile(tmp, "typed", {"--url", "http://127.0.0.1:1", "--input-file", file,
                                     "--custom-dataset-type", "bogus"});
  CHECK(typed.exit_code == 2);
  CHECK(typed.err.find("--custom-dataset-type") != std::string::npos);
}
