// tracelab: TraceLab rounds grouped into sessions, block ids minted from the prefix split,
// subagents joined by timing containment, and the result replayed as a Weka trace. The fixture's
// expected Weka traces (as_weka/) are what AIPerf 0.13's own converter (_tracelab_convert) makes
// of trace.jsonl; loading both must give the same conversations.
#include <catch2/catch.hpp>
#include <zlib.h>

#include <fstream>
#include <sstream>

#include "custom_dataset.h"
#include "dataset_error.h"
#include "temp_file.h"
#include "tracelab_trace.h"
#include "weka_trace.h"

using namespace aiperf::dataset;
using aiperf::config::CustomDatasetType;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/tracelab";
const std::string kTrace = kDir + "/trace.jsonl";

std::string write_temp(const std::string& name, const std::string& content) {
  return aiperf::testing::write_temp_file("aiperf_tracelab_", name, content);
}

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

aiperf::config::InputConfig input(const std::string& path, CustomDatasetType type = CustomDatasetType::kTracelab) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = type;
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

std::string load_error(const std::string& content) {
  try {
    load(input(write_temp("bad.jsonl", content)));
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

std::vector<double> delays(const aiperf::proto::Conversation& c) {
  std::vector<double> out;
  for (const auto& t : c.turns()) out.push_back(t.has_delay_ms() ? t.delay_ms() : -1);
  return out;
}

std::vector<double> timestamps(const aiperf::proto::Conversation& c) {
  std::vector<double> out;
  for (const auto& t : c.turns()) out.push_back(t.timestamp_ms());
  return out;
}

std::vector<int64_t> max_tokens(const aiperf::proto::Conversation& c) {
  std::vector<int64_t> out;
  for (const auto& t : c.turns()) out.push_back(t.max_tokens());
  return out;
}

// One round of session `sid` submitted at `in_ts` (a user message) and answered until `out_ts`.
std::string row(const std::string& sid, const std::string& in_ts, const std::string& out_ts, int input = 128,
                int prefix = 0) {
  return R"({"session_id": ")" + sid + R"(", "round_index": 0, "input_tokens_total": )" + std::to_string(input) +
         R"(, "prefix_tokens": )" + std::to_string(prefix) + R"(, "newly_append_tokens": 0, "output_tokens": 3, )" +
         R"("timing_events": [{"event_type": "user_message", "timestamp": ")" + in_ts +
         R"("}, {"event_type": "text", "timestamp": ")" + out_ts + R"("}]})" + "\n";
}

}  // namespace

TEST_CASE("tracelab: the fixture's sessions, subagent, max tokens, timestamps and waits") {
  const CustomDataset d = load(input(kTrace));
  // Roots in file order, then the subagent joined into claude:aaa's 18 s Task call.
  REQUIRE(d.conversations.size() == 3);
  const auto& a = d.conversations[0];
  const auto& c = d.conversations[1];
  const auto& sub = d.conversations[2];
  CHECK(a.session_id() == "claude_aaa");
  CHECK(c.session_id() == "codex_ccc");
  CHECK(sub.session_id() == "claude_aaa::sa:claude_bbb");
  // out = output_tokens + reasoning_output_tokens (10 + 5 on the second round).
  CHECK(max_tokens(a) == std::vector<int64_t>{20, 15, 8});
  CHECK(max_tokens(sub) == std::vector<int64_t>{12, 6});
  CHECK(max_tokens(c) == std::vector<int64_t>{4, 9});
  // Submitted at 0 s, 20 s (tool result), 40 s; the subagent at 3 s and 6 s of the parent's clock.
  CHECK(timestamps(a) == std::vector<double>{0, 20000, 40000});
  CHECK(timestamps(sub) == std::vector<double>{3000, 6000});
  CHECK(timestamps(c) == std::vector<double>{0, 30500});
  // Wait = start-to-start minus the previous round's api time (last output event - submission):
  // 20 - 2 s, 40 - 20 - 1 s; 6 - 3 - 2 s; 30.5 - 2 s.
  CHECK(delays(a) == std::vector<double>{-1, 18000, 19000});
  CHECK(delays(sub) == std::vector<double>{-1, 1000});
  CHECK(delays(c) == std::vector<double>{-1, 28500});
  CHECK(d.default_sampling == "sequential");
  CHECK(d.has_timestamps);
  // Trace models in order of first use, the subagent's after the parent's.
  CHECK(d.trace_models[0] == std::vector<std::string>{"claude-sonnet", "claude-haiku"});
}

TEST_CASE("tracelab: block ids minted from the prefix split, one namespace per trace") {
  const auto traces = read_tracelab_traces(kTrace, TracelabOptions{});
  REQUIRE(traces.size() == 2);
  const WekaTrace& a = traces[0];
  CHECK(a.id == "claude_aaa");
  CHECK(a.block_size == 64);
  REQUIRE(a.calls.size() == 3);
  // 300 tokens: 4 whole blocks; 400 with 300 cached: keeps 4 (300 / 64), mints 2; 450: keeps 6, mints 1.
  CHECK(a.calls[0].second.hash_ids == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(a.calls[1].second.hash_ids == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(a.calls[2].second.hash_ids == std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7});
  // The subagent mints after the parent, in the same namespace, and sits after the first call.
  REQUIRE(a.subagents.size() == 1);
  CHECK(a.subagents[0].outer == 1);
  CHECK(a.subagents[0].t == 2.0);  // the Task call's emitted_at
  CHECK(a.subagents[0].agent_id == "claude_bbb");
  CHECK(a.subagents[0].duration_ms == 18000);
  CHECK(a.subagents[0].requests[0].hash_ids == std::vector<int64_t>{8, 9, 10});
  CHECK(a.subagents[0].requests[1].hash_ids == std::vector<int64_t>{8, 9, 10, 11});
  CHECK(!a.subagents[0].requests[0].think_time);
  CHECK(a.calls[2].second.think_time == 19.0);
  CHECK(traces[1].calls[1].second.hash_ids == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("tracelab: the same conversations as AIPerf's converted traces replayed as weka_trace") {
  const CustomDataset ours = load(input(kTrace));
  const CustomDataset weka = load(input(kDir + "/as_weka", CustomDatasetType::kWekaTrace));
  REQUIRE(ours.conversations.size() == weka.conversations.size());
  for (size_t i = 0; i < ours.conversations.size(); ++i)
    CHECK(ours.conversations[i].SerializeAsString() == weka.conversations[i].SerializeAsString());
  REQUIRE(ours.weka_pending.size() == weka.weka_pending.size());
  for (size_t i = 0; i < ours.weka_pending.size(); ++i) {
    CHECK(ours.weka_pending[i].scope == weka.weka_pending[i].scope);
    CHECK(ours.weka_pending[i].segments == weka.weka_pending[i].segments);
  }
  CHECK(ours.trace_models == weka.trace_models);
}

TEST_CASE("tracelab: a gzipped corpus reads as the plain one, its rows counted through gzip") {
  const std::string path = write_temp("trace.jsonl.gz", "");
  {
    gzFile f = gzopen(path.c_str(), "wb");
    REQUIRE(f);
    const std::string text = read_file(kTrace);
    REQUIRE(gzwrite(f, text.data(), static_cast<unsigned>(text.size())) == static_cast<int>(text.size()));
    gzclose(f);
  }
  CHECK(is_tracelab_file(path));
  CHECK(detect_custom_dataset_type(path) == CustomDatasetType::kTracelab);
  CHECK(count_tracelab_rows(path) == 7);
  const CustomDataset gz = load(input(path));
  const CustomDataset plain = load(input(kTrace));
  REQUIRE(gz.conversations.size() == 3);
  for (size_t i = 0; i < 3; ++i)
    CHECK(gz.conversations[i].SerializeAsString() == plain.conversations[i].SerializeAsString());
}

TEST_CASE("tracelab: the join off, or a spawn shorter than the minimum, leaves every session a trace") {
  TracelabOptions off;
  off.join_subagents = false;
  auto traces = read_tracelab_traces(kTrace, off);
  REQUIRE(traces.size() == 3);
  CHECK(traces[1].id == "claude_bbb");
  CHECK(traces[1].subagents.empty());
  // Its own clock: rounds at 3 s and 6 s are 0 and 3 s.
  CHECK(traces[1].calls[1].second.t == 3.0);
  CHECK(traces[1].calls[0].second.hash_ids == std::vector<int64_t>{1, 2, 3});

  TracelabOptions strict;
  strict.min_spawn_ms = 18001;  // the Task call lasted 18000 ms
  traces = read_tracelab_traces(kTrace, strict);
  CHECK(traces.size() == 3);
  strict.min_spawn_ms = 18000;
  CHECK(read_tracelab_traces(kTrace, strict).size() == 2);
}

TEST_CASE("tracelab: --isl-block-size sets the block the ids are minted at") {
  TracelabOptions opt;
  opt.block_size = 100;
  const auto traces = read_tracelab_traces(kTrace, opt);
  // 300 tokens: 3 blocks; 400 with 300 cached: keeps 3, mints 1.
  CHECK(traces[0].calls[0].second.hash_ids == std::vector<int64_t>{1, 2, 3});
  CHECK(traces[0].calls[1].second.hash_ids == std::vector<int64_t>{1, 2, 3, 4});
  aiperf::config::InputConfig in = input(kTrace);
  in.isl_block_size = 100;
  CHECK(tracelab_options(in).block_size == 100);
  // The AIPERF_DATASET_TRACELAB_* values as the CLI read them into the config.
  in.agentic_trace.tracelab_subagent_join = false;
  in.agentic_trace.tracelab_codex_subagent_join = false;
  in.agentic_trace.tracelab_min_spawn_ms = 18001;
  const TracelabOptions from_config = tracelab_options(in);
  CHECK_FALSE(from_config.join_subagents);
  CHECK_FALSE(from_config.join_codex);
  CHECK(from_config.min_spawn_ms == 18001);
  CHECK(load(in).conversations.size() == 3);  // no join: claude:bbb is a trace of its own
}

TEST_CASE("tracelab: rounds ordered by submission time, offsets and naive times read as UTC") {
  // Round 1 is listed first but submitted later; +02:00 is 10:00:05Z; a naive time is UTC.
  const std::string text = row("s", "2025-06-01T12:00:05+02:00", "2025-06-01T10:00:06Z", 256, 128) +
                           row("s", "2025-06-01 10:00:00", "2025-06-01T10:00:01.5Z") +
                           row("s", "2025-06-01T10:00:10.1234567Z", "2025-06-01T10:00:11Z");
  const auto traces = read_tracelab_traces(write_temp("order.jsonl", text), TracelabOptions{});
  REQUIRE(traces.size() == 1);
  const auto& calls = traces[0].calls;
  REQUIRE(calls.size() == 3);
  CHECK(calls[0].second.t == 0.0);
  CHECK(calls[0].second.api_time == 1.5);
  CHECK(calls[1].second.t == 5.0);
  CHECK(calls[1].second.in == 256);
  CHECK(calls[1].second.think_time == 3.5);  // 5 - (0 + 1.5)
  CHECK(calls[2].second.t == 10.123456);     // fraction cut to microseconds
  // 128 tokens: 2 fresh blocks; 256 with 128 cached keeps both, mints 2.
  CHECK(calls[0].second.hash_ids == std::vector<int64_t>{1, 2});
  CHECK(calls[1].second.hash_ids == std::vector<int64_t>{1, 2, 3, 4});
}

TEST_CASE("tracelab: detection by the first row's keys and the file name") {
  CHECK(is_tracelab_file(kTrace));
  CHECK(detect_custom_dataset_type(kTrace) == CustomDatasetType::kTracelab);
  const std::string other = write_temp("rows.json", read_file(kTrace));  // not a .jsonl / .gz name
  CHECK_FALSE(is_tracelab_file(other));
  const std::string mooncake = write_temp("m.jsonl", R"({"input_length": 10, "output_length": 2})"
                                                     "\n");
  CHECK_FALSE(is_tracelab_file(mooncake));
}

TEST_CASE("tracelab: bad rows name the file, line and field; nothing loads") {
  const std::string ok = row("s", "2025-06-01T10:00:00Z", "2025-06-01T10:00:01Z");
  std::string e = load_error(ok + "{not json\n");
  CHECK(e.find("bad.jsonl:2: invalid JSON") != std::string::npos);
  e = load_error(ok + row("s", "yesterday", "2025-06-01T10:00:01Z"));
  CHECK(e.find("bad.jsonl:2: field 'timing_events[0].timestamp': is not an ISO-8601 time: 'yesterday'") !=
        std::string::npos);
  e = load_error(R"({"session_id": "s", "input_tokens_total": "many"})"
                 "\n");
  CHECK(e.find("bad.jsonl:1: field 'input_tokens_total': must be a number, got \"many\"") != std::string::npos);
  e = load_error(R"({"round_index": 0})"
                 "\n[1, 2]\n");
  CHECK(e.find("No TraceLab sessions found in '") != std::string::npos);
  e = load_error(R"({"session_id": 7})"
                 "\n");
  CHECK(e.find("bad.jsonl:1: field 'session_id': must be a string, got 7") != std::string::npos);
  // "a:b" and "a/b" both become "a_b".
  e = load_error(row("a:b", "2025-06-01T10:00:00Z", "2025-06-01T10:00:01Z") +
                 row("a/b", "2025-06-01T11:00:00Z", "2025-06-01T11:00:01Z"));
  CHECK(e.find("bad.jsonl:2: duplicate TraceLab trace id 'a_b': session 'a/b' collides") != std::string::npos);
}

TEST_CASE("tracelab: --max-context-length drops traces by their recorded peak") {
  aiperf::config::InputConfig in = input(kTrace);
  // claude_aaa peaks at 450 + 8 = 458 (its subagent at 266), codex_ccc at 200 + 9 = 209.
  in.agentic_trace.max_context_length = 457;
  CustomDataset d = load(in);
  REQUIRE(d.conversations.size() == 1);
  CHECK(d.conversations[0].session_id() == "codex_ccc");
  in.agentic_trace.max_context_length = 208;
  try {
    load(in);
    FAIL("no error");
  } catch (const DatasetFileError& e) {
    CHECK(std::string(e.what()).find("Smallest trace requires 209 tokens") != std::string::npos);
  }
}
