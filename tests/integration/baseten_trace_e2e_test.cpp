// End-to-end: `aiperf profile --input-file X --custom-dataset-type baseten_trace` against
// aiperf-mock-server. Checks the bodies the mock recorded (--record-requests): literal prompts,
// min_tokens and the KV hints per --omit-kv-hints / --no-force-min-tokens, no session history;
// the send times in profile_export.jsonl against the replay schedule (open loop: speedup and
// idle-gap cap; closed loop: think time after the previous answer); and the refusals (exit 2,
// the option named, nothing written). The same rows from Arrow IPC and Parquet send the same
// requests; AIPerf 0.13 replaying the Parquet file sent the same fields and the same schedule
// (tests/compat/baseten_replay.py, docs/datasets.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kTrace = std::string(AIPERF_TEST_DATA) + "/datasets/baseten_trace.jsonl";
using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  return aiperf::test::run_named(tmp, name, args);
}

struct Sent {
  std::string prompt, session;
  int turn = 0;
  double start_ms = 0, end_ms = 0;  // from the first request's start
  double intended_ms = 0;           // the schedule's time, from the first request's
  double late_ms = 0;               // start - intended: never negative
};

// The run's records by send time, each with the prompt the mock received for it (bodies are
// matched by prompt, every prompt of the fixture being distinct).
std::vector<Sent> sent(const Run& run) {
  std::vector<Sent> out;
  for (const auto& r : run.records()) {
    const json& m = r["metadata"];
    const double start = m["request_start_ns"].get<double>() / 1e6;
    // Only scheduled sends have an intended time; the others count as on time.
    const double intended = m.contains("intended_start_ns") && m["intended_start_ns"].is_number()
                                ? m["intended_start_ns"].get<double>() / 1e6
                                : start;
    out.push_back({"", m["x_correlation_id"], m["turn_index"], start, m["request_end_ns"].get<double>() / 1e6,
                   intended, start - intended});
  }
  std::sort(out.begin(), out.end(), [](const Sent& a, const Sent& b) { return a.intended_ms < b.intended_ms; });
  const double t0 = out.empty() ? 0 : out[0].start_ms;
  const double i0 = out.empty() ? 0 : out[0].intended_ms;
  for (auto& s : out) {
    s.start_ms -= t0;
    s.end_ms -= t0;
    s.intended_ms -= i0;
  }
  return out;
}

std::map<std::string, json> bodies_by_prompt(const std::vector<json>& bodies) {
  std::map<std::string, json> out;
  for (const auto& b : bodies) {
    if (b.contains("prompt")) {
      const json& p = b["prompt"];
      out[p.is_array() ? p[0].get<std::string>() : p.get<std::string>()] = b;
    } else {
      out[b["messages"].back()["content"].get<std::string>()] = b;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("baseten_trace open loop: recorded fields on the wire, timestamps / speedup, idle gaps capped",
          "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--endpoint-type", "completions", "--input-file", kTrace,
                                 "--custom-dataset-type", "baseten_trace", "--replay-speedup", "10",
                                 "--max-idle-gap-cap-seconds", "0.5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 4);
  const auto by = bodies_by_prompt(bodies);
  REQUIRE(by.size() == 4);
  CHECK(by.at("hello b1")["max_tokens"] == 1);  // output_tokens 0 floored to 1
  CHECK(by.at("hello b1")["min_tokens"] == 1);
  CHECK_FALSE(by.at("hello b1").contains("hash_ids"));
  CHECK(by.at("hello a1")["min_tokens"] == 5);
  CHECK(by.at("hello a1")["hash_ids"] == json::array({11, 12}));
  CHECK(by.at("hello a1")["block_size"] == 64);
  CHECK(by.at("hello a2")["hash_ids"] == json::array({11, 12, 13}));
  CHECK(by.at("hello a2")["max_tokens"] == 7);
  json c1 = by.at("hello c1");
  c1.erase("prompt");  // the rest of the body, whole (no hints: the row has no total_hashes)
  CHECK(c1.dump() == R"({"max_tokens":4,"min_tokens":4,"model":"m","stream":false})");
  // Sent in schedule order: b 0 ms, a1 100, a2 200 (recorded 0, 1 s, 2 s / 10), c 3000 -> 700
  // with the 500 ms cap on the 2.8 s gap. Never early; c far before its uncapped 3000 ms.
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  CHECK(s[1].intended_ms == Approx(100.0).margin(1.0));
  CHECK(s[2].intended_ms == Approx(200.0).margin(1.0));
  CHECK(s[3].intended_ms == Approx(700.0).margin(1.0));
  for (const auto& x : s) CHECK(x.late_ms >= 0.0);
  CHECK(s[1].session == s[2].session);  // a1 and a2: one session, turns 0 and 1
  CHECK(s[2].turn == 1);
  for (const auto& r : run.records()) CHECK_FALSE(r.contains("error"));
}

TEST_CASE("baseten_trace closed loop: think time after the answer, hints and min_tokens left out, no history",
          "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kTrace,
                                 "--custom-dataset-type", "baseten_trace", "--replay-speedup", "10",
                                 "--no-open-loop-replay", "--omit-kv-hints", "--no-force-min-tokens"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 4);
  for (const auto& b : bodies) {
    CHECK_FALSE(b.contains("min_tokens"));
    CHECK_FALSE(b.contains("hash_ids"));
    CHECK_FALSE(b.contains("block_size"));
    CHECK(b["messages"].size() == 1);  // each recorded prompt alone: no earlier turn, no answer
  }
  const auto by = bodies_by_prompt(bodies);
  CHECK(by.at("hello a2")["max_completion_tokens"] == 7);
  // a2 leaves 70 ms after a1's answer: (2000 - 1000) / 10 recorded gap - 300 / 10 recorded e2e.
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  CHECK(s[2].session == s[1].session);
  CHECK(s[2].turn == 1);
  CHECK(s[2].start_ms >= s[1].end_ms + 69.0);
  CHECK(s[1].intended_ms == Approx(100.0).margin(1.0));
  CHECK(s[3].intended_ms == Approx(3000.0).margin(1.0));  // c keeps its recorded (scaled) start: no cap
}

TEST_CASE("baseten_trace --open-loop-strict sends every row as its own session", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--endpoint-type", "completions", "--input-file", kTrace,
                                 "--custom-dataset-type", "baseten_trace", "--replay-speedup", "100",
                                 "--open-loop-strict"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  for (const auto& x : s) CHECK(x.turn == 0);
  CHECK(s[1].session != s[2].session);
}

TEST_CASE("baseten_trace refusals: option named, exit 2, nothing written", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string dead = "http://127.0.0.1:1";
  Run a = profile(tmp, "a", {"--url", dead, "--replay-speedup", "2"});
  CHECK(a.exit_code == 2);
  CHECK(a.err.find("--replay-speedup is only supported by the baseten_trace loader; provide --input-file and "
                   "--custom-dataset-type baseten_trace.") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(a.dir));

  Run b = profile(tmp, "b", {"--url", dead, "--input-file", kTrace, "--custom-dataset-type", "mooncake_trace",
                             "--omit-kv-hints", "--no-force-min-tokens"});
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("--omit-kv-hints, --force-min-tokens/--no-force-min-tokens is only supported by the "
                   "baseten_trace loader, but --custom-dataset-type is mooncake_trace.") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(b.dir));

  Run c = profile(tmp, "c", {"--url", dead, "--input-file", kTrace, "--custom-dataset-type", "baseten_trace",
                             "--extra-inputs", "block_size:16"});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("--extra-inputs block_size is overwritten per-turn by the baseten_trace loader; pass "
                   "--omit-kv-hints to send your value instead") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(c.dir));

  Run d = profile(tmp, "d", {"--url", dead, "--input-file", kTrace, "--trace-session-sample-ratio", "0"});
  CHECK(d.exit_code == 2);
  CHECK(d.err.find("--trace-session-sample-ratio: must be a number > 0 and <= 1, got '0'") != std::string::npos);

  const std::string bad = tmp + "/bad.jsonl";
  std::ofstream(bad) << R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": 1})"
                     << "\n" << R"({"timestamp_start_unix_ms": 6, "prompt": "y", "input_tokens": "two", "output_tokens": 1})"
                     << "\n";
  Run e = profile(tmp, "e", {"--url", dead, "--input-file", bad, "--custom-dataset-type", "baseten_trace"});
  CHECK(e.exit_code == 2);
  CHECK(e.err.find(bad + ":2: field 'input_tokens': must be an integer >= 0, got \"two\"") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(e.dir));
}

TEST_CASE("baseten_trace replay keys of a config file's file dataset", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const std::string cfg = tmp + "/cfg.yaml";
  std::ofstream(cfg) << "benchmark:\n  model: m\n  endpoint:\n    url: " << mock.url()
                     << "\n    type: completions\n  dataset:\n    type: file\n    path: " << kTrace
                     << "\n    format: baseten_trace\n    replay_speedup: 10\n    max_idle_gap_cap_seconds: 0.5\n"
                        "    omit_kv_hints: true\n    force_min_tokens: false\n  phases:\n    type: fixed_schedule\n";
  Run run = profile(tmp, "run", {"-f", cfg});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 4);
  for (const auto& b : bodies) {
    CHECK_FALSE(b.contains("min_tokens"));
    CHECK_FALSE(b.contains("hash_ids"));
  }
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  CHECK(s[3].intended_ms == Approx(700.0).margin(1.0));  // the 2.8 s gap capped at 0.5 s
}

TEST_CASE("inter-turn delay cap (--inter-turn-delay-cap-seconds) clamps a multi_turn file's recorded delay", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const std::string file = tmp + "/multi.jsonl";
  std::ofstream(file) << R"({"session_id": "s", "turns": [{"text": "a"}, {"text": "b", "delay": 5000}]})" << "\n";
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", file, "--custom-dataset-type", "multi_turn",
                                 "--inter-turn-delay-cap-seconds", "0.1", "--request-count", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto s = sent(run);
  REQUIRE(s.size() == 2);
  CHECK(s[1].start_ms >= s[0].end_ms + 99.0);
  CHECK(s[1].start_ms < s[0].end_ms + 2500.0);  // not the recorded 5 s
}

TEST_CASE("baseten_trace from an Arrow IPC file (detected): the same requests as from JSON Lines", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const std::string arrow = std::string(AIPERF_TEST_DATA) + "/datasets/baseten_trace.arrow";
  Run run = profile(tmp, "run", {"--url", mock.url(), "--endpoint-type", "completions", "--input-file", arrow,
                                 "--fixed-schedule", "--replay-speedup", "100"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto by = bodies_by_prompt(aiperf::test::recorded_bodies(rec));
  REQUIRE(by.size() == 4);
  CHECK(by.at("hello a2")["hash_ids"] == json::array({11, 12, 13}));
  CHECK(by.at("hello a2")["min_tokens"] == 7);
  CHECK(by.at("hello b1")["max_tokens"] == 1);
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  CHECK(s[3].intended_ms == Approx(300.0).margin(1.0));  // 30 s / 100
}

TEST_CASE("baseten_trace from a Parquet file (detected): the same requests as from JSON Lines", "[e2e][baseten]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // Two row groups, zstd: written by pyarrow (tests/data/parquet/make_fixtures.py).
  const std::string file = std::string(AIPERF_TEST_DATA) + "/parquet/baseten_trace.parquet";
  Run run = profile(tmp, "run",
                    {"--url", mock.url(), "--endpoint-type", "completions", "--input-file", file, "--fixed-schedule",
                     "--replay-speedup", "100"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto by = bodies_by_prompt(aiperf::test::recorded_bodies(rec));
  REQUIRE(by.size() == 4);
  CHECK(by.at("hello a1")["hash_ids"] == json::array({11, 12}));
  CHECK(by.at("hello a1")["block_size"] == 64);
  CHECK(by.at("hello a2")["hash_ids"] == json::array({11, 12, 13}));
  CHECK(by.at("hello a2")["min_tokens"] == 7);
  CHECK(by.at("hello b1")["max_tokens"] == 1);
  CHECK_FALSE(by.at("hello b1").contains("hash_ids"));
  CHECK_FALSE(by.at("hello c1").contains("block_size"));
  const auto s = sent(run);
  REQUIRE(s.size() == 4);
  CHECK(s[1].intended_ms == Approx(10.0).margin(1.0));   // 1 s / 100 after the earliest row (b1)
  CHECK(s[3].intended_ms == Approx(300.0).margin(1.0));  // 30 s / 100

  Run absent = profile(tmp, "parquet", {"--url", "http://127.0.0.1:1", "--input-file", tmp + "/t.parquet"});
  CHECK(absent.exit_code == 2);
  // A corrupt file: exit 2, the file and the problem named, nothing written.
  std::ifstream whole(file, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(whole)), {});
  bytes.resize(bytes.size() - 1);
  std::ofstream(tmp + "/t.parquet", std::ios::binary) << bytes;
  Run bad = profile(tmp, "parquet2", {"--url", "http://127.0.0.1:1", "--input-file", tmp + "/t.parquet"});
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("t.parquet: not a Parquet file (no PAR1 magic)") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(bad.dir));
}
