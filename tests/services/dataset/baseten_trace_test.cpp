// baseten_trace: row parsing with file:line errors, open/closed-loop replay, --replay-speedup,
// idle-gap and think-time caps, the body fields per --omit-kv-hints / --force-min-tokens, and
// whole-session sampling. Expected values follow AIPerf 0.13's loader, worked out by hand.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "arrow_ipc.h"
#include "baseten_trace.h"
#include "custom_dataset.h"
#include "dataset_error.h"

using namespace aiperf::dataset;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";
const std::string kFixture = kData + "baseten_trace.jsonl";

std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_baseten_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << content;
  return path;
}

aiperf::config::InputConfig input(const std::string& path) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kBasetenTrace;
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  return load_custom_dataset(in, 1, rng);
}

std::string load_error(const std::string& content) {
  const std::string path = write_temp("bad.jsonl", content);
  try {
    load(input(path));
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("reflow_idle_gaps shortens gaps over the cap in time order", "[dataset][baseten]") {
  // Positions kept; walked in time order: 0, 100, 5000, 5000 (tie), 20000.
  CHECK(reflow_idle_gaps({5000, 0, 20000, 100, 5000}, 1000.0) == std::vector<int64_t>{1100, 0, 2100, 100, 1100});
  // The earliest keeps its value; a sub-millisecond cap rounds up to 1 ms; floats truncate.
  CHECK(reflow_idle_gaps({10.9, 50.2, 51.7}, 0.3) == std::vector<int64_t>{10, 11, 12});
  CHECK(reflow_idle_gaps({10.9, 50.2}, std::nullopt) == std::vector<int64_t>{10, 50});
}

TEST_CASE("baseten think time: recorded gap minus recorded e2e, speedup and cap", "[dataset][baseten]") {
  CHECK(baseten_think_time_ms(1000, 300, 1.0, std::nullopt) == 700.0);
  CHECK(baseten_think_time_ms(100, 300, 10.0, std::nullopt) == 70.0);  // gap already scaled; e2e 300/10
  CHECK(baseten_think_time_ms(100, 300, 1.0, std::nullopt) == 0.0);    // never negative
  CHECK(baseten_think_time_ms(1000, 0, 1.0, 0.25) == 250.0);           // --inter-turn-delay-cap-seconds
}

TEST_CASE("baseten_trace open loop: sessions, normalized timestamps, literal prompts, body fields", "[dataset][baseten]") {
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(kFixture)) == "baseten_trace");
  const CustomDataset d = load(input(kFixture));
  CHECK(d.has_timestamps);
  CHECK(d.default_sampling == "sequential");
  REQUIRE(d.conversations.size() == 3);
  // Sessions by first timestamp: b (0 ms), a (1000 ms), the session-less row (30000 ms).
  const auto& b = d.conversations[0];
  const auto& a = d.conversations[1];
  const auto& c = d.conversations[2];
  CHECK(b.session_id() == "b");
  CHECK(a.session_id() == "a");
  CHECK(c.session_id().size() == 36);  // generated
  REQUIRE(a.turns_size() == 2);
  CHECK(a.self_contained_turns());
  CHECK_FALSE(b.self_contained_turns());
  CHECK(b.turns(0).timestamp_ms() == 0.0);
  CHECK(a.turns(0).timestamp_ms() == 1000.0);
  CHECK(a.turns(1).timestamp_ms() == 2000.0);
  CHECK_FALSE(a.turns(1).has_delay_ms());
  CHECK(c.turns(0).timestamp_ms() == 30000.0);
  CHECK(a.turns(0).texts(0).contents(0) == "hello a1");
  CHECK(a.turns(0).max_tokens() == 5);
  CHECK(b.turns(0).max_tokens() == 1);  // output_tokens 0 (a canceled request) floored to 1
  CHECK(a.turns(0).extra_body() == R"({"min_tokens":5,"hash_ids":[11,12],"block_size":64})");
  CHECK(b.turns(0).extra_body() == R"({"min_tokens":1})");  // total_hashes null: no hints
  CHECK(d.pending.empty());
}

TEST_CASE("baseten_trace --omit-kv-hints and --no-force-min-tokens choose the body fields", "[dataset][baseten]") {
  auto in = input(kFixture);
  in.trace_replay.omit_kv_hints = true;
  CHECK(load(in).conversations[1].turns(0).extra_body() == R"({"min_tokens":5})");
  in.trace_replay.omit_kv_hints = false;
  in.trace_replay.force_min_tokens = false;
  CHECK(load(in).conversations[1].turns(0).extra_body() == R"({"hash_ids":[11,12],"block_size":64})");
  in.trace_replay.omit_kv_hints = true;
  CHECK(load(in).conversations[1].turns(0).extra_body().empty());
}

TEST_CASE("baseten_trace --replay-speedup divides timestamps; the idle-gap cap applies after it", "[dataset][baseten]") {
  auto in = input(kFixture);
  in.trace_replay.replay_speedup = 8.0;
  {
    const CustomDataset d = load(in);
    CHECK(d.conversations[0].turns(0).timestamp_ms() == 0.0);
    CHECK(d.conversations[1].turns(0).timestamp_ms() == 125.0);
    CHECK(d.conversations[1].turns(1).timestamp_ms() == 250.0);
    CHECK(d.conversations[2].turns(0).timestamp_ms() == 3750.0);
  }
  in.trace_replay.max_idle_gap_cap_seconds = 0.5;  // 250 -> 3750 becomes 250 -> 750
  const CustomDataset d = load(in);
  CHECK(d.conversations[1].turns(1).timestamp_ms() == 250.0);
  CHECK(d.conversations[2].turns(0).timestamp_ms() == 750.0);
}

TEST_CASE("baseten_trace closed loop: continuation turns get think times, starts keep timestamps", "[dataset][baseten]") {
  auto in = input(kFixture);
  in.trace_replay.open_loop_replay = false;
  {
    const CustomDataset d = load(in);
    const auto& a = d.conversations[1];
    CHECK(a.turns(0).timestamp_ms() == 1000.0);
    CHECK_FALSE(a.turns(1).has_timestamp_ms());
    CHECK(a.turns(1).delay_ms() == 700.0);  // 2000 - 1000 - e2e 300
  }
  in.trace_replay.replay_speedup = 10.0;
  in.trace_replay.inter_turn_delay_cap_seconds = 0.05;
  in.trace_replay.max_idle_gap_cap_seconds = 0.5;
  const CustomDataset d = load(in);
  CHECK(d.conversations[1].turns(1).delay_ms() == 50.0);      // 100 - 30 = 70, capped at 50
  CHECK(d.conversations[1].turns(0).timestamp_ms() == 100.0);
  CHECK(d.conversations[2].turns(0).timestamp_ms() == 600.0);  // starts 0, 100, 3000: gap 2900 -> 500
}

TEST_CASE("baseten_trace --open-loop-strict makes every row its own session", "[dataset][baseten]") {
  auto in = input(kFixture);
  in.trace_replay.open_loop_strict = true;
  const CustomDataset d = load(in);
  REQUIRE(d.conversations.size() == 4);
  CHECK(d.conversations[0].session_id() == "b#0");
  CHECK(d.conversations[1].session_id() == "a#0");
  CHECK(d.conversations[2].session_id() == "a#1");
  CHECK(d.conversations[2].turns(0).timestamp_ms() == 2000.0);
  for (const auto& c : d.conversations) CHECK(c.turns_size() == 1);
}

TEST_CASE("baseten_trace --trace-session-sample-ratio keeps whole sessions, drawn by seed", "[dataset][baseten]") {
  // 12 two-turn sessions s0..s11 (first timestamps 0, 10, ... so draw order = index order), then
  // 3 rows without a session.
  std::string rows;
  for (int i = 0; i < 12; ++i)
    for (int t = 0; t < 2; ++t)
      rows += R"({"timestamp_start_unix_ms": )" + std::to_string(1000 + i * 10 + t * 5) +
              R"(, "prompt": "p", "input_tokens": 1, "output_tokens": 1, "provided_session_id": "s)" +
              std::to_string(i) + "\"}\n";
  for (int k = 0; k < 3; ++k)
    rows += R"({"timestamp_start_unix_ms": )" + std::to_string(2000 + k) +
            R"(, "prompt": "n", "input_tokens": 1, "output_tokens": 1})" + "\n";
  auto in = input(write_temp("sessions.jsonl", rows));
  in.trace_replay.trace_session_sample_ratio = 0.5;
  for (uint64_t seed : {1u, 7u}) {
    // The same draws, made here: one per session in (first timestamp, id) order, then one per
    // session-less row in file order.
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<std::string> expected;
    std::map<std::string, bool> keep;
    std::vector<std::string> order;
    for (int i = 0; i < 12; ++i) order.push_back("s" + std::to_string(i));
    std::sort(order.begin(), order.end(), [](const std::string& x, const std::string& y) {
      return std::stoi(x.substr(1)) < std::stoi(y.substr(1));
    });
    for (const auto& s : order) keep[s] = u(rng) < 0.5;
    size_t nulls = 0;
    for (int k = 0; k < 3; ++k) nulls += u(rng) < 0.5;
    for (const auto& s : order)
      if (keep[s]) expected.push_back(s);

    const CustomDataset d = load(in, seed);
    std::vector<std::string> got;
    size_t got_nulls = 0;
    for (const auto& c : d.conversations) {
      if (c.session_id()[0] == 's') {
        got.push_back(c.session_id());
        CHECK(c.turns_size() == 2);  // whole sessions
      } else {
        ++got_nulls;
      }
    }
    CHECK(got == expected);
    CHECK(got_nulls == nulls);
    CHECK(!got.empty());
    CHECK(got.size() < 12);
  }
}

TEST_CASE("baseten_trace bad rows name file, line and field", "[dataset][baseten]") {
  const std::string ok = R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": 1})";
  CHECK_THAT(load_error(ok + "\n" + R"({"prompt": "x", "input_tokens": 1, "output_tokens": 1})"),
             Catch::Contains("bad.jsonl:2: field 'timestamp_start_unix_ms': is required"));
  CHECK_THAT(load_error(R"({"timestamp_start_unix_ms": 5, "prompt": 3, "input_tokens": 1, "output_tokens": 1})"),
             Catch::Contains("bad.jsonl:1: field 'prompt': must be a string, got 3"));
  CHECK_THAT(load_error(R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": -2})"),
             Catch::Contains("bad.jsonl:1: field 'output_tokens': must be an integer >= 0, got -2"));
  CHECK_THAT(load_error(R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": 1, "total_hashes": [1, -1]})"),
             Catch::Contains("bad.jsonl:1: field 'total_hashes': must be an integer >= 0, got -1"));
  CHECK_THAT(load_error(R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": 1, "block_size": 0})"),
             Catch::Contains("bad.jsonl:1: field 'block_size': must be an integer >= 1, got 0"));
  CHECK_THAT(load_error(R"({"timestamp_start_unix_ms": 5, "prompt": "x", "input_tokens": 1, "output_tokens": 1, "provided_session_id": 1.5})"),
             Catch::Contains("bad.jsonl:1: field 'provided_session_id': must be an integer >= 0, got 1.5"));
  // A file named .parquet is detected as a trace and read as Parquet.
  const std::string parquet = write_temp("t.parquet", "PAR1");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(parquet)) == "baseten_trace");
  try {
    load(input(parquet));
    FAIL("no error");
  } catch (const DatasetFileError& e) {
    CHECK(std::string(e.what()) == parquet + ": not a Parquet file (too short)");
  }
}

TEST_CASE("inter-turn delay cap (--inter-turn-delay-cap-seconds) clamps the recorded delays of multi_turn and mooncake files",
          "[dataset][baseten]") {
  const std::string multi = write_temp(
      "multi.jsonl", R"({"session_id": "s", "turns": [{"text": "a"}, {"text": "b", "delay": 5000}, {"text": "c", "delay": 5}]})"
                     "\n");
  aiperf::config::InputConfig in;
  in.input_file = multi;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kMultiTurn;
  in.trace_replay.inter_turn_delay_cap_seconds = 2.0;
  const CustomDataset d = load(in);
  REQUIRE(d.conversations[0].turns_size() == 3);
  CHECK_FALSE(d.conversations[0].turns(0).has_delay_ms());
  CHECK(d.conversations[0].turns(1).delay_ms() == 2000.0);
  CHECK(d.conversations[0].turns(2).delay_ms() == 5.0);

  const std::string moon = write_temp(
      "moon.jsonl", R"({"session_id": "m", "input_length": 5, "output_length": 2, "delay": 9000})" "\n");
  in.input_file = moon;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kMooncakeTrace;
  in.trace_replay.inter_turn_delay_cap_seconds = 0.0;
  CHECK(load(in).conversations[0].turns(0).delay_ms() == 0.0);
}

TEST_CASE("Arrow IPC: the rows pyarrow wrote, every column type the reader takes", "[dataset][baseten][arrow]") {
  using nlohmann::json;
  const auto rows = read_arrow_ipc_rows(kData + "baseten_trace.arrow");  // two record batches
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == json::parse(R"({"timestamp_start_unix_ms": 1700000001000, "prompt": "hello a1", "input_tokens": 3,
      "output_tokens": 5, "total_hashes": [11, 12], "block_size": 64, "provided_session_id": "a", "duration_e2e_ms": 300})"));
  CHECK(rows[1]["total_hashes"].is_null());
  CHECK(rows[1]["block_size"].is_null());
  CHECK(rows[3] == json::parse(R"({"timestamp_start_unix_ms": 1700000030000, "prompt": "hello c1", "input_tokens": 2,
      "output_tokens": 4, "total_hashes": null, "block_size": null, "provided_session_id": null, "duration_e2e_ms": null})"));

  const auto types = read_arrow_ipc_rows(kData + "baseten_trace_types.arrow");
  REQUIRE(types.size() == 2);
  CHECK(types[0] == json::parse(R"({"timestamp_start_unix_ms": 2000, "prompt": "x", "input_tokens": 1, "output_tokens": 3,
      "total_hashes": [7, 8], "nothing": null, "flag": true, "score": 0.5})"));
  CHECK(types[1] == json::parse(R"({"timestamp_start_unix_ms": 1000, "prompt": "y", "input_tokens": 65535,
      "output_tokens": 4, "total_hashes": null, "nothing": null, "flag": null, "score": -1.25})"));
}

TEST_CASE("baseten_trace from Arrow IPC loads as the same rows in JSON Lines", "[dataset][baseten][arrow]") {
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(kData + "baseten_trace.arrow")) == "baseten_trace");
  for (bool open_loop : {true, false}) {
    auto arrow = input(kData + "baseten_trace.arrow");
    auto jsonl = input(kFixture);
    arrow.trace_replay.open_loop_replay = jsonl.trace_replay.open_loop_replay = open_loop;
    const CustomDataset a = load(arrow), j = load(jsonl);  // same seed: same generated ids
    REQUIRE(a.conversations.size() == 3);
    REQUIRE(a.conversations.size() == j.conversations.size());
    for (size_t i = 0; i < a.conversations.size(); ++i)
      CHECK(a.conversations[i].SerializeAsString() == j.conversations[i].SerializeAsString());
  }
}

TEST_CASE("baseten_trace from Parquet (two row groups, zstd) loads as the same rows in JSON Lines",
          "[dataset][baseten][parquet]") {
  const std::string file = std::string(AIPERF_TEST_DATA) + "/parquet/baseten_trace.parquet";
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(file)) == "baseten_trace");
  for (bool open_loop : {true, false}) {
    for (bool omit_kv_hints : {false, true}) {
      auto pq = input(file);
      auto jsonl = input(kFixture);
      pq.trace_replay.open_loop_replay = jsonl.trace_replay.open_loop_replay = open_loop;
      pq.trace_replay.omit_kv_hints = jsonl.trace_replay.omit_kv_hints = omit_kv_hints;
      const CustomDataset p = load(pq), j = load(jsonl);  // same seed: same generated ids
      REQUIRE(p.conversations.size() == 3);
      REQUIRE(p.conversations.size() == j.conversations.size());
      for (size_t i = 0; i < p.conversations.size(); ++i)
        CHECK(p.conversations[i].SerializeAsString() == j.conversations[i].SerializeAsString());
    }
  }
  // Rows that fail the trace's checks name the file and the row; Parquet problems the file.
  auto error = [](const std::string& path) -> std::string {
    try {
      load(input(path));
    } catch (const DatasetFileError& e) {
      return e.what();
    }
    return "no error";
  };
  const std::string other = std::string(AIPERF_TEST_DATA) + "/parquet/text_zstd.parquet";
  CHECK(error(other) == other + ": row 1: field 'timestamp_start_unix_ms': is required");
  std::ifstream whole(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(whole)), {});
  const std::string cut = write_temp("cut.parquet", bytes.substr(0, bytes.size() - 1));
  CHECK(error(cut) == cut + ": not a Parquet file (no PAR1 magic)");
}

TEST_CASE("bad Arrow IPC files: row and field, or what is not supported", "[dataset][baseten][arrow]") {
  auto error = [](const std::string& path) -> std::string {
    try {
      load(input(path));
    } catch (const DatasetFileError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error(kData + "baseten_trace_bad.arrow") ==
        kData + "baseten_trace_bad.arrow: row 2: field 'output_tokens': must be an integer >= 0, got -2");
  CHECK(error(kData + "baseten_trace_zstd.arrow") ==
        kData + "baseten_trace_zstd.arrow: compressed record batches are not supported (write with compression=None)");
  const std::string text = write_temp("text.arrow", "not arrow at all, just some text here");
  CHECK(error(text) == text + ": not an Arrow IPC file (no ARROW1 magic at both ends)");
  // Cut in the middle: the footer is gone.
  std::ifstream whole(kData + "baseten_trace.arrow", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(whole)), {});
  const std::string cut = write_temp("cut.arrow", bytes.substr(0, bytes.size() / 2));
  CHECK_THAT(error(cut), Catch::StartsWith(cut + ": not an Arrow IPC file"));
}

TEST_CASE("Arrow IPC: every single-byte corruption is read or refused, never a crash", "[dataset][baseten][arrow]") {
  std::ifstream whole(kData + "baseten_trace.arrow", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(whole)), {});
  size_t refused = 0, read = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string copy = bytes;
      copy[i] = static_cast<char>(copy[i] ^ flip);
      try {
        parse_arrow_ipc_rows(copy, "flip.arrow");
        ++read;
      } catch (const DatasetFileError&) {
        ++refused;
      }
    }
  }
  CHECK(read + refused == bytes.size() * 3);
  CHECK(refused > 0);
}

TEST_CASE("baseten_trace session column: provided_session_id first, poor_man_session_id when chosen",
          "[dataset][baseten]") {
  const std::string path = write_temp(
      "both_ids.jsonl",
      R"({"timestamp_start_unix_ms": 1000, "prompt": "x", "input_tokens": 1, "output_tokens": 1, "provided_session_id": "p1", "poor_man_session_id": 7})"
      "\n"
      R"({"timestamp_start_unix_ms": 2000, "prompt": "y", "input_tokens": 1, "output_tokens": 1, "provided_session_id": "p2", "poor_man_session_id": 7})"
      "\n");
  auto in = input(path);
  CHECK(load(in).conversations.size() == 2);  // by provided_session_id: two sessions
  in.trace_replay.session_column = "poor_man_session_id";
  const CustomDataset d = load(in);
  REQUIRE(d.conversations.size() == 1);  // both rows share poor_man_session_id 7
  CHECK(d.conversations[0].turns_size() == 2);
}
