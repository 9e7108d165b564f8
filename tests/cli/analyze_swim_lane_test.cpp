// Swim-lane layout and curves (cli/analyze_swim_lane.h) on hand-made records whose lanes and
// concurrency steps are worked out in the comments.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "analyze_scene_render.h"
#include "analyze_swim_lane.h"

using namespace aiperf::cli::analyze;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kBase = 1'700'000'000'000'000'000;  // absolute ns, as in real exports

LaneRecord rec(const std::string& sid, int64_t turn, int64_t start_ms, int64_t end_ms) {
  LaneRecord r;
  r.session = sid;
  r.conversation = "conv-" + sid;
  r.turn_index = turn;
  r.start_ns = kBase + start_ms * 1'000'000;
  r.end_ns = kBase + end_ms * 1'000'000;
  return r;
}

// a: 0-100, 200-300 ms; d: two overlapping turns 10-20 and 15-30; b: 50-150; c: 160-400.
// Slots by start: a -> 0, d -> 1, b -> 1 (d ended at 30), c -> 1 (b ended at 150).
std::vector<LaneRecord> fixture() {
  return {rec("a", 0, 0, 100), rec("b", 0, 50, 150), rec("a", 1, 200, 300), rec("c", 0, 160, 400),
          rec("d", 1, 15, 30), rec("d", 0, 10, 20)};
}

std::string write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / ("aiperf-swim-" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path p = dir / name;
  std::ofstream(p) << text;
  return p.string();
}

}  // namespace

TEST_CASE("swim-lane packs sessions into reused slots and stacks parallel turns", "[analyze][swim-lane]") {
  const SwimLane lane = build_swim_lane(fixture());
  CHECK(lane.order == std::vector<std::string>{"a", "b", "c", "d"});
  REQUIRE(lane.groups.size() == 4);
  CHECK(lane.n_slots == 2);
  std::vector<std::pair<std::string, int>> slots;
  for (const LaneGroup& g : lane.groups) slots.emplace_back(g.root, g.slot);
  CHECK(slots == std::vector<std::pair<std::string, int>>{{"a", 0}, {"d", 1}, {"b", 1}, {"c", 1}});
  // d's turns are sorted by turn_index (10-20 first) and overlap: two rows.
  CHECK(lane.sessions.at("d").front().start_ns == kBase + 10'000'000);
  CHECK(lane.groups[1].rows == 2);
  CHECK(lane.groups[1].members[0].depths == std::vector<int>{0, 1});
  CHECK(lane.t_max_s == 0.4);
  CHECK(lane.n_sub == 0);
}

TEST_CASE("swim-lane concurrency: requests in flight and idle live sessions", "[analyze][swim-lane]") {
  const SwimLane lane = build_swim_lane(fixture());
  // Seconds as the reference computes them: absolute ns as float64 first, so 10 ms after
  // 1.7e18 ns is 0.009999872 s (Python: (float(base + 10**7) - float(base)) / 1e9).
  CHECK(lane.active.t == std::vector<double>{0.0, 0.009999872, 0.015000064, 0.02, 0.030000128, 0.049999872, 0.1,
                                             0.150000128, 0.16, 0.2, 0.3, 0.4});
  CHECK(lane.active.v == std::vector<double>{1, 2, 3, 2, 1, 2, 1, 0, 1, 2, 1, 0});
  CHECK(lane.peak_active == 3);
  // Live sessions minus requests in flight, never below 0 (d's two turns overlap at 15 ms).
  CHECK(lane.idle.t == lane.active.t);
  CHECK(lane.idle.v == std::vector<double>{0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0});
}

TEST_CASE("swim-lane nests subagents under their root's lane", "[analyze][swim-lane]") {
  std::vector<LaneRecord> records{rec("r", 0, 0, 100), rec("s1", 0, 100, 200), rec("s2", 0, 150, 250),
                                  rec("r", 1, 300, 400), rec("x", 0, 0, 50)};
  for (auto& r : records) {
    if (r.session == "x") continue;
    r.root_correlation_id = "r";
    if (r.session != "r") r.agent_depth = 1;
  }
  const SwimLane lane = build_swim_lane(records);
  CHECK(lane.n_sub == 2);
  REQUIRE(lane.groups.size() == 2);
  const LaneGroup& g = lane.groups[0];
  CHECK(g.root == "r");
  CHECK(g.slot == 0);
  CHECK(g.rows == 3);  // the root's row, then s1 and s2 (they overlap) in child rows 1 and 2
  REQUIRE(g.members.size() == 3);
  CHECK(g.members[1].sid == "s1");
  CHECK(g.members[1].row0 == 1);
  CHECK(g.members[2].row0 == 2);
  CHECK(g.members[2].is_sub);
  CHECK(lane.groups[1].root == "x");
  CHECK(lane.groups[1].slot == 1);
  // Without root ids the parent walk finds the same root.
  for (auto& r : records) {
    r.root_correlation_id.clear();
    if (r.agent_depth) r.parent_correlation_id = "r";
  }
  CHECK(build_swim_lane(records).groups[0].members.size() == 3);
}

TEST_CASE("swim-lane payload and picture", "[analyze][swim-lane]") {
  SwimLaneView view;
  view.run_name = "run1";
  view.concurrency = 2;
  view.times.bench_s = 0.4;
  std::vector<LaneRecord> records = fixture();
  records[0].isl = 100;
  records[0].ttft_ms = 12.345;
  records[0].osl = 11;
  records[2].isl = 130;
  records[2].error = true;
  const SwimLane lane = build_swim_lane(records);
  const nlohmann::json p = nlohmann::json::parse(swim_lane_payload(lane, view).dump());
  CHECK(p["run"] == "run1");
  CHECK(p["nSlots"] == 2);
  CHECK(p["target"] == 2);
  CHECK(p["rampS"].is_null());
  CHECK(p["benchEnd"] == 0.4);
  CHECK(p["peakActive"] == 3);
  CHECK(p["peakTotal"] == 3);
  REQUIRE(p["sessions"].size() == 4);
  const auto& a = p["sessions"][0];
  CHECK(a["id"] == "a");
  CHECK(a["conv"] == "conv-a");
  // [start, end, ttft, latency, isl, osl, depth, agent_depth, new_isl, status]: the second
  // turn's new tokens are 130 - 100, and it failed.
  // (agent_depth is null: these records do not carry it.)
  CHECK(a["turns"][0] == nlohmann::json::parse("[0.0, 0.1, 12.3, null, 100, 11, 0, null, 100, 0]"));
  CHECK(a["turns"][1] == nlohmann::json::parse("[0.2, 0.3, null, null, 130, null, 0, null, 30, 1]"));
  CHECK(a["gaps"] == nlohmann::json::parse("[[0.1, 0.2]]"));
  CHECK(p["active"]["v"][2] == 3);
  // New prompt tokens in prefill: a's first turn (100 tokens) until its TTFT (12.345 ms, 0.012
  // s rounded), its second (130 - 100 = 30 new) for the whole request (no TTFT).
  CHECK(p["newIsl"] == nlohmann::json::parse(R"({"t": [0.0, 0.012, 0.2, 0.3], "v": [100, 0, 30, 0]})"));
  CHECK(p["peakNewIsl"] == 100);
  // One request with a TTFT, at t = 0: one band point.
  CHECK(p["latencyBand"] == nlohmann::json::parse(R"({"t": [0.0], "p50": [12.3], "p99": [12.3]})"));
  CHECK(p["peakLat"] == 12.3);
  CHECK(p["peaks"] == nlohmann::json::parse(R"({"mainActive": 3, "mainAlive": 2, "subActive": 0, "subAlive": 0})"));
  // Rates (tokens/s): a's first turn prefills 100 tokens in 0.012345088 s (8100.39/s), then
  // decodes 11 - 1 tokens until 0.1 s (114.08/s); its second prefills 130 tokens over the whole
  // request (no TTFT: 1300/s). KV: 100, +11 at generation start, all freed at the end; 130.
  CHECK(p["prefillTput"] == nlohmann::json::parse(R"({"t": [0.0, 0.012, 0.2, 0.3], "v": [8100, 0, 1300, 0]})"));
  CHECK(p["decodeTput"] == nlohmann::json::parse(R"({"t": [0.012, 0.1], "v": [114, 0]})"));
  CHECK(p["totalTput"] ==
        nlohmann::json::parse(R"({"t": [0.0, 0.012, 0.012, 0.1, 0.2, 0.3], "v": [8100, 0, 114, 0, 1300, 0]})"));
  CHECK(p["peakTput"] == 8100);
  CHECK(p["kvCache"] == nlohmann::json::parse(R"({"t": [0.0, 0.012, 0.1, 0.2, 0.3], "v": [100, 111, 0, 130, 0]})"));
  CHECK(p["peakKv"] == 130);

  const Scene scene = draw_swim_lane(lane, view);
  CHECK(scene.width == 1600);
  size_t bars = 0;
  for (const SceneRect& r : scene.rects) bars += !r.tip.empty();
  CHECK(bars == 6);  // one hover bar per request
  bool titled = false;
  for (const SceneText& t : scene.texts) titled = titled || t.text == "run1  \xE2\x80\x94  4 sessions across 2 slots";
  CHECK(titled);
  const std::string html = swim_lane_html(scene, "run1</script>", p.dump());
  CHECK(html.find("<title>run1&lt;/script&gt; \xE2\x80\x94 swim lanes</title>") != std::string::npos);
  CHECK(html.find("session a turn 1: 0.200-0.300 s, ISL 130, error") != std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // no other URL: offline
}

TEST_CASE("swim-lane reads profile_export.jsonl and names a bad line", "[analyze][swim-lane]") {
  const std::string ok = write_temp(
      "ok.jsonl",
      "{\"metadata\": {\"x_correlation_id\": \"s\", \"conversation_id\": \"c\", \"turn_index\": 0, "
      "\"request_start_ns\": 10, \"request_end_ns\": 20}, \"metrics\": {\"input_sequence_length\": {\"value\": 5}}}\n"
      "\n"
      "{\"metadata\": {\"conversation_id\": \"c2\", \"request_start_ns\": 10, \"request_end_ns\": 30, "
      "\"was_cancelled\": true}}\n"
      "{\"metadata\": {\"conversation_id\": \"c3\", \"request_start_ns\": 10, \"request_end_ns\": null}}\n"
      "{\"metadata\": {\"conversation_id\": \"c4\", \"request_start_ns\": 15, \"request_end_ns\": 25}, "
      "\"error\": {\"code\": 500}}\n");
  const auto records = load_lane_records(ok);
  REQUIRE(records.size() == 2);
  CHECK(records[0].session == "s");
  CHECK(records[0].isl == 5.0);
  CHECK(records[1].session == "c4");  // no x_correlation_id: the conversation
  CHECK(records[1].error);
  const std::string bad = write_temp("bad.jsonl", "{\"metadata\": {}}\n{\"metadata\": \n");
  CHECK_THROWS_WITH(load_lane_records(bad), Catch::StartsWith(bad + ":2: invalid JSON"));
  CHECK_THROWS_WITH(load_lane_records("/nonexistent/p.jsonl"), "/nonexistent/p.jsonl not found");
}

TEST_CASE("swim-lane reads the ramp and benchmark end of both summary layouts", "[analyze][swim-lane]") {
  const BenchTimes v2 = parse_bench_times(
      R"({"benchmark_duration": {"avg": 12.5}, "input_config": {"phases": [
          {"exclude_from_results": true, "concurrency_ramp": {"duration": 1}},
          {"concurrency_ramp": {"duration": 3}}]}})");
  CHECK(v2.ramp_s == 3.0);
  CHECK(v2.bench_s == 12.5);
  const BenchTimes v1 = parse_bench_times(R"({"input_config": {"loadgen": {"concurrency_ramp_duration": 2,
      "benchmark_duration": 7}}})");
  CHECK(v1.ramp_s == 2.0);
  CHECK(v1.bench_s == 7.0);
  const BenchTimes none = parse_bench_times("not json");
  CHECK_FALSE(none.ramp_s.has_value());
  CHECK_FALSE(none.bench_s.has_value());
}
