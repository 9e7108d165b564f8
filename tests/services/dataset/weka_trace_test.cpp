// weka_trace: the message layout rebuilt from hash_ids (AIPerf 0.13's reconstruction, worked out
// by hand on the fixtures and checked against the reference's own loader), schema errors naming
// file and field, sessions and subagents, delays and the options that change them
// (--use-think-time-only, --ignore-trace-delays, --inter-turn-delay-cap-seconds,
// --trace-idle-gap-cap-seconds, --max-context-length), detection, model mapping, and the texts
// written with a tokenizer.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "corpus.h"
#include "custom_dataset.h"
#include "dataset_error.h"
#include "prompt_generator.h"
#include "tokenizer/tokenizer.h"
#include "weka_prompts.h"
#include "weka_reconstruct.h"
#include "weka_trace.h"

using namespace aiperf::dataset;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/weka_trace";

std::string write_temp(const std::string& name, const std::string& content) {
  const auto dir = std::filesystem::temp_directory_path() / ("aiperf_weka_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path) << content;
  return path;
}

aiperf::config::InputConfig input(const std::string& path) {
  aiperf::config::InputConfig in;
  in.input_file = path;
  in.custom_dataset_type = aiperf::config::CustomDatasetType::kWekaTrace;
  return in;
}

CustomDataset load(const aiperf::config::InputConfig& in) {
  std::mt19937_64 rng(1);
  return load_custom_dataset(in, 1, rng);
}

std::string load_error(const std::string& content) {
  const std::string path = write_temp("bad.json", content);
  try {
    load(input(path));
  } catch (const DatasetFileError& e) {
    return e.what();
  }
  return "no error";
}

WekaSegment seg(const std::string& role, std::vector<int64_t> blocks, uint32_t tail = 0, const std::string& seed = "") {
  return {role, std::move(blocks), tail, seed};
}

const WekaPendingTurn& pending(const CustomDataset& d, size_t conv, int turn) {
  for (const auto& p : d.weka_pending)
    if (p.conversation == conv && p.turn == turn) return p;
  FAIL("no pending turn");
  return d.weka_pending.front();
}

std::vector<double> delays(const aiperf::proto::Conversation& c) {
  std::vector<double> out;
  for (const auto& t : c.turns()) out.push_back(t.has_delay_ms() ? t.delay_ms() : -1);
  return out;
}

const std::string kTraceHead = R"({"id": "t", "models": ["m"], "block_size": 16, "hash_id_scope": "local", )";

}  // namespace

TEST_CASE("weka reconstruction: system prefix, partial tails, assistant blocks, tokens = recorded in",
          "[dataset][weka]") {
  WekaReconstructor r(16);
  // tool + system = 30 tokens: ceil(30 / 16) = 2 blocks of system; 40 = 2 blocks + an 8-token tail.
  r.init_turn_0({1, 2, 3}, 40, 20, 10, "s0");
  CHECK(r.segments() == std::vector<WekaSegment>{seg("system", {1, 2}), seg("user", {}, 8, "s0")});
  CHECK(r.token_count() == 40);
  // 60 = 3 full blocks, but the buffer has 2: nothing is cut (the tail stays), nothing new but a
  // 12-token tail, so no room for the previous answer's block.
  r.advance_turn({1, 2, 3}, 5, {1, 2, 3, 4}, 60, "s1", std::nullopt);
  CHECK(r.segments() ==
        std::vector<WekaSegment>{seg("system", {1, 2}), seg("user", {}, 8, "s0"), seg("user", {}, 12, "s1")});
  // One new block (5): ceil(7 / 16) = 1 assistant block, then the 10-token tail as user.
  r.advance_turn({1, 2, 3, 4}, 7, {1, 2, 3, 4, 5, 6}, 90, "s2", std::nullopt);
  CHECK(r.segments() == std::vector<WekaSegment>{seg("system", {1, 2}), seg("user", {}, 8, "s0"),
                                                 seg("user", {}, 12, "s1"), seg("assistant", {5}),
                                                 seg("user", {}, 10, "s2")});
}

TEST_CASE("weka reconstruction: truncation at the common prefix, the trailing user rule, planner caps",
          "[dataset][weka]") {
  WekaReconstructor r(8);
  r.init_turn_0({1, 2}, 20, 0, 0, "a");
  CHECK(r.segments() == std::vector<WekaSegment>{seg("user", {1, 2}, 4, "a")});
  // Only 3 of the 5 blocks hashed: the missing 2 blocks (16 tokens) join the tail; the boundary
  // cut at 2 blocks strips turn 0's tail.
  r.advance_turn({1, 2}, 4, {1, 2, 7}, 40, "b", std::nullopt);
  CHECK(r.segments() == std::vector<WekaSegment>{seg("user", {1, 2}), seg("assistant", {7}), seg("user", {}, 16, "b")});
  CHECK(r.token_count() == 40);
  // A mid-segment cut: the context falls back to block 1, then grows by block 9 with no tail;
  // a region wholly assistant hands its last block back to the user.
  r.advance_turn({1, 2, 7}, 30, {1, 9}, 16, "c", std::nullopt);
  CHECK(r.segments() == std::vector<WekaSegment>{seg("user", {1}), seg("user", {9})});

  // Planner: turn 2 only pulls back to block 5, which turn 1 created: turn 1 may give the
  // assistant 5 - 1 - 4 = 0 blocks, so turn 2's request still ends with a user message.
  const std::vector<std::pair<std::vector<int64_t>, int64_t>> turns{
      {{1, 2, 3, 4}, 64}, {{1, 2, 3, 4, 5, 6}, 96}, {{1, 2, 3, 4, 5}, 80}};
  const auto caps = weka_asst_block_caps(turns, 16);
  REQUIRE(caps.size() == 3);
  CHECK(!caps[0]);
  CHECK(caps[1] == std::optional<int64_t>(0));
  CHECK(!caps[2]);
  WekaReconstructor p(16);
  p.init_turn_0({1, 2, 3, 4}, 64, 0, 0, "x");
  p.advance_turn({1, 2, 3, 4}, 40, {1, 2, 3, 4, 5, 6}, 96, "y", caps[1]);
  CHECK(p.segments() == std::vector<WekaSegment>{seg("user", {1, 2, 3, 4}), seg("user", {5, 6})});
  p.advance_turn({1, 2, 3, 4, 5, 6}, 3, {1, 2, 3, 4, 5}, 80, "z", caps[2]);
  CHECK(p.segments() == std::vector<WekaSegment>{seg("user", {1, 2, 3, 4}), seg("user", {5})});
  // Without the cap the same turn 1 would have been assistant block 5 then user block 6.
  WekaReconstructor q(16);
  q.init_turn_0({1, 2, 3, 4}, 64, 0, 0, "x");
  q.advance_turn({1, 2, 3, 4}, 40, {1, 2, 3, 4, 5, 6}, 96, "y", std::nullopt);
  CHECK(q.segments() == std::vector<WekaSegment>{seg("user", {1, 2, 3, 4}), seg("assistant", {5}), seg("user", {6})});
  // A prefix the hash_ids cannot cover is refused.
  WekaReconstructor s(16);
  CHECK_THROWS_AS(s.init_turn_0({1}, 64, 40, 0, "p"), std::invalid_argument);
}

TEST_CASE("weka_trace directory: sessions, subagents, max tokens, timestamps and idle-gap delays", "[dataset][weka]") {
  const CustomDataset d = load(input(kDir));
  REQUIRE(d.conversations.size() == 3);  // trace_a, trace_b, then trace_a's subagent (README.txt is not read)
  CHECK(d.default_sampling == "sequential");
  CHECK(d.has_timestamps);
  const auto& a = d.conversations[0];
  const auto& b = d.conversations[1];
  const auto& sa = d.conversations[2];
  CHECK(a.session_id() == "trace_a");
  CHECK(sa.session_id() == "trace_a::sa:agent_001");
  CHECK(b.session_id() == "trace_b");
  for (const auto* c : {&a, &sa, &b}) CHECK(c->self_contained_turns());
  REQUIRE(a.turns_size() == 3);
  CHECK(a.turns(0).max_tokens() == 5);
  CHECK(a.turns(1).max_tokens() == 7);
  CHECK(a.turns(2).max_tokens() == 1);  // a recorded 0 is sent as 1
  CHECK(a.turns(1).timestamp_ms() == 1500.0);
  CHECK(a.turns(2).timestamp_ms() == 3000.0);
  // (1.5 - 0) s - 0.5 s of api_time; (3.0 - 1.5) s - 0.25 s.
  CHECK(delays(a) == std::vector<double>{-1, 1000.0, 1250.0});
  CHECK(delays(sa) == std::vector<double>{-1, 300.0});  // 1.2 - 0.7 - 0.2
  CHECK(delays(b) == std::vector<double>{-1, 59500.0});
  CHECK(sa.turns(0).model() == "claude-haiku");
  CHECK(sa.turns(1).max_tokens() == 2);
  CHECK(b.turns(0).timestamp_ms() == 10000.0);
  REQUIRE(d.trace_models.size() == 3);
  CHECK(d.trace_models[2] == std::vector<std::string>{"claude-x", "claude-haiku"});

  CHECK(pending(d, 0, 2).segments ==
        std::vector<WekaSegment>{seg("system", {1, 2}), seg("user", {}, 8, "trace_a:turn_0:partial_tail"),
                                 seg("user", {}, 12, "trace_a:turn_1:partial_tail"), seg("assistant", {5}),
                                 seg("user", {}, 10, "trace_a:turn_2:partial_tail")});
  CHECK(pending(d, 0, 2).block_size == 16);
  CHECK(pending(d, 2, 1).segments ==
        std::vector<WekaSegment>{seg("user", {50}), seg("assistant", {51}),
                                 seg("user", {}, 4, "trace_a::sa:agent_001:turn_1:partial_tail")});
  CHECK(pending(d, 2, 1).scope == "trace_a");  // a subagent shares its trace's hash ids
  CHECK(pending(d, 1, 1).segments == std::vector<WekaSegment>{seg("user", {1, 2}), seg("assistant", {7}),
                                                              seg("user", {}, 16, "trace_b:turn_1:partial_tail")});
  CHECK(pending(d, 1, 1).block_size == 8);

  // One file alone.
  const CustomDataset one = load(input(kDir + "/b.json"));
  REQUIRE(one.conversations.size() == 1);
  CHECK(one.conversations[0].session_id() == "trace_b");
}

TEST_CASE("weka_trace delay options: think time, ignore, per-turn cap, per-trace idle-gap cap", "[dataset][weka]") {
  auto in = input(kDir);
  in.agentic_trace.use_think_time_only = true;
  CustomDataset d = load(in);
  CHECK(delays(d.conversations[0]) == std::vector<double>{-1, 300.0, 1250.0});  // no think_time: the idle gap
  CHECK(delays(d.conversations[1]) == std::vector<double>{-1, 2000.0});

  in = input(kDir);
  in.agentic_trace.ignore_trace_delays = true;
  d = load(in);
  CHECK(!d.has_timestamps);
  for (const auto& c : d.conversations) {
    CHECK(delays(c) == std::vector<double>(c.turns_size(), -1));
    for (const auto& t : c.turns()) CHECK(!t.has_timestamp_ms());
  }

  in = input(kDir);
  in.trace_replay.inter_turn_delay_cap_seconds = 1.1;
  d = load(in);
  CHECK(delays(d.conversations[0]) == std::vector<double>{-1, 1000.0, 1100.0});
  CHECK(delays(d.conversations[1]) == std::vector<double>{-1, 1100.0});

  // Idle-gap cap 1 s: trace_a's starts 0, 0.7, 1.2, 1.5, 3.0 lose 0.5 s of the 1.5 s gap;
  // trace_b's 60 s gap becomes 1 s. The per-turn cap yields to it.
  in.agentic_trace.trace_idle_gap_cap_seconds = 1.0;
  d = load(in);
  CHECK(delays(d.conversations[0]) == std::vector<double>{-1, 1000.0, 750.0});
  CHECK(d.conversations[0].turns(2).timestamp_ms() == 2500.0);
  CHECK(delays(d.conversations[2]) == std::vector<double>{-1, 300.0});
  CHECK(delays(d.conversations[1]) == std::vector<double>{-1, 500.0});
  CHECK(d.conversations[1].turns(1).timestamp_ms() == 11000.0);
}

TEST_CASE("weka_trace --max-context-length drops whole traces by their recorded peak", "[dataset][weka]") {
  auto in = input(kDir);
  in.agentic_trace.max_context_length = 91;  // trace_a's peak: 90 + max(0, 1)
  CHECK(load(in).conversations.size() == 3);
  in.agentic_trace.max_context_length = 90;
  const CustomDataset d = load(in);
  REQUIRE(d.conversations.size() == 1);
  CHECK(d.conversations[0].session_id() == "trace_b");
  in.agentic_trace.max_context_length = 48;  // trace_b's peak: 40 + 9
  try {
    load(in);
    FAIL("no error");
  } catch (const DatasetFileError& e) {
    CHECK(std::string(e.what()) ==
          "No eligible traces in weka_trace after filter-then-cap (scanned 2, --max-context-length=48, "
          "--num-dataset-entries=None). Smallest "
          "trace requires 49 tokens; raise --max-context-length to at least that (e.g. --max-context-length 49) to "
          "admit any trace.");
  }
}

TEST_CASE("weka_trace schema errors name the file and field", "[dataset][weka]") {
  const std::string file = write_temp("bad.json", "");
  const std::string req = R"({"t": 0, "type": "n", "model": "m", "in": 10, "out": 2})";
  CHECK(load_error(kTraceHead + R"("requests": [)" + req + "]}") == "no error");
  CHECK(load_error("{\"id\": ").rfind(file + ": invalid JSON: ", 0) == 0);
  CHECK(load_error(kTraceHead + R"("requests": [)" + req + R"(], "extra": 1})") ==
        file + ": field 'extra': is not a field of the Weka trace schema (extra fields are not permitted)");
  CHECK(load_error(kTraceHead + R"("requests": [{"t": 0, "type": "n", "model": "m", "out": 2}]})") ==
        file + ": field 'requests[0].in': is required");
  CHECK(load_error(kTraceHead + R"("requests": [{"t": 0, "type": "n", "model": "m", "in": "10", "out": 2}]})") ==
        file + ": field 'requests[0].in': must be an integer, got \"10\"");
  CHECK(load_error(kTraceHead + R"("requests": [{"t": 0, "type": "n", "model": "m", "in": -1, "out": 2}]})") ==
        file + ": field 'requests[0].in': must be an integer from 0 to 4294967295, got -1");
  CHECK(load_error(kTraceHead + R"("requests": [{"t": 0, "type": "x", "model": "m", "in": 1, "out": 2}]})") ==
        file + ": field 'requests[0].type': must be 'n', 's' or 'subagent', got 'x'");
  CHECK(
      load_error(kTraceHead + R"("requests": [{"t": 0, "type": "n", "model": "m", "in": 1, "out": 2, "ttft": 1}]})") ==
      file + ": field 'requests[0].ttft': is not a field of the Weka trace schema (extra fields are not permitted)");
  CHECK(load_error(R"({"id": "t", "models": [], "block_size": 0, "hash_id_scope": "local", "requests": []})") ==
        file + ": field 'block_size': must be > 0");
  CHECK(load_error(R"({"id": "t", "models": [], "block_size": 4, "hash_id_scope": "global", "requests": []})") ==
        file + ": field 'hash_id_scope': must be 'local' (hash ids scoped to one trace), got 'global'");
  CHECK(load_error(kTraceHead + R"("requests": [)" + req +
                   R"(, {"t": 1, "type": "subagent", "agent_id": "a", "subagent_type": "E", "status": "completed",
                        "models": [], "requests": [{"t": 1, "type": "subagent"}]}]})") ==
        file + ": field 'requests[1].requests[0].type': must be 'n' or 's', got 'subagent'");
  const std::string sub = R"({"t": 1, "type": "subagent", "agent_id": "a", "subagent_type": "E", "status": "completed",
                              "models": [], "requests": []})";
  CHECK(load_error(kTraceHead + R"("requests": [)" + req + "," + sub + "," + sub + "]}") ==
        file +
            ": trace 't': duplicate subagent agent_id 'a' among retained subagents. Each emitted subagent in a "
            "trace must have a unique agent_id.");
  // The same ids on subagents before any call are dropped with them, so they are no conflict.
  CHECK(load_error(kTraceHead + R"("requests": [)" + sub + "," + sub + "," + req + "]}") == "no error");
  // The declared prefix needs more hash blocks than turn 0 recorded.
  CHECK(load_error(R"({"id": "t", "models": ["m"], "block_size": 16, "hash_id_scope": "local", "system_tokens": 40,
                       "requests": [{"t": 0, "type": "n", "model": "m", "in": 64, "out": 1, "hash_ids": [1]}]})")
            .find("turn 0's system prefix needs 3 hash blocks but only 1 were recorded") != std::string::npos);

  // Two files with one id.
  const auto dir = std::filesystem::path(file).parent_path() / "dup";
  std::filesystem::create_directories(dir);
  for (const char* name : {"x.json", "y.json"})
    std::ofstream(dir / name) << kTraceHead + R"("requests": [)" + req + "]}";
  try {
    load(input(dir.string()));
    FAIL("no error");
  } catch (const DatasetFileError& e) {
    CHECK(std::string(e.what()) == "duplicate trace id 't' in directory: '" + (dir / "y.json").string() +
                                       "' conflicts with a prior file ('" + (dir / "x.json").string() + "')");
  }
}

TEST_CASE("weka_trace is detected; models map onto --model in order of first use", "[dataset][weka]") {
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(kDir)) == "weka_trace");
  CHECK(aiperf::config::to_string(detect_custom_dataset_type(kDir + "/a.json")) == "weka_trace");
  CHECK(!is_weka_trace_path(std::string(AIPERF_TEST_DATA) + "/datasets/inputs_json.json"));

  CustomDataset d = load(input(kDir));
  map_weka_models(d, {"m1", "m2"});
  CHECK(d.conversations[0].turns(0).model() == "m1");
  CHECK(d.conversations[2].turns(0).model() == "m2");  // claude-haiku: the trace's second model
  CHECK(d.conversations[1].turns(1).model() == "m1");
  map_weka_models(d, {"solo"});
  CHECK(d.conversations[2].turns(1).model() == "solo");
}

TEST_CASE("weka_trace messages: one per segment, recurring hash ids read the same, seeded texts repeat",
          "[dataset][weka]") {
  const auto tokenizer = aiperf::tok::load_tokenizer(aiperf::tok::resolve_tokenizer_path("gpt2"));
  const PromptGenerator prompts(*tokenizer, generate_corpus());
  auto build = [&](std::optional<uint64_t> seed) {
    CustomDataset d = load(input(kDir));
    write_weka_messages(d, prompts, seed);
    return d;
  };
  const CustomDataset d = build(42);
  auto messages = [&](size_t c, int t) { return nlohmann::json::parse(d.conversations[c].turns(t).raw_messages()); };
  const auto a2 = messages(0, 2);
  REQUIRE(a2.size() == 5);
  CHECK(a2[0]["role"] == "system");
  CHECK(a2[3]["role"] == "assistant");
  CHECK(a2[4]["role"] == "user");
  CHECK(messages(0, 0)[0] == a2[0]);  // the system blocks 1, 2 are the same text on every turn
  CHECK(messages(0, 1)[2] == a2[2]);
  // trace_b's blocks 1, 2 (8 tokens each) are its own, not trace_a's.
  CHECK(messages(1, 1)[0]["content"] != a2[0]["content"]);
  CHECK(messages(1, 0)[0]["content"].get<std::string>().rfind(messages(1, 1)[0]["content"].get<std::string>(), 0) == 0);
  CHECK(build(42).conversations[0].turns(2).raw_messages() == d.conversations[0].turns(2).raw_messages());
  // Without a seed the texts are fresh per run, but a turn still re-sends its context verbatim.
  const CustomDataset u = build(std::nullopt);
  const auto u1 = nlohmann::json::parse(u.conversations[0].turns(1).raw_messages());
  const auto u2 = nlohmann::json::parse(u.conversations[0].turns(2).raw_messages());
  CHECK(u2[1] == u1[1]);  // turn 0's tail
  CHECK(u2[2] == u1[2]);  // turn 1's tail
  CHECK(build(7).conversations[0].turns(2).raw_messages() != d.conversations[0].turns(2).raw_messages());
}
