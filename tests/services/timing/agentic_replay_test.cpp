// AGENTIC_REPLAY on a fake clock: trajectories (t*, warmed and profiled turns), the two phases'
// start offsets (spread, burst, the per-trace idle cap), and PhaseRunner running them: exact
// send times, the global idle cap moving pending timers, lanes recycling into fresh sessions.
#include <catch2/catch.hpp>

#include <cmath>

#include "agentic_replay.h"
#include "config/agentic_replay_config.h"
#include "fake_credit_sink.h"
#include "phase_runner.h"
#include "shiftable_timers.h"
#include "trajectory_source.h"

using aiperf::proto::Credit;
using aiperf::timing::AgenticOptions;
using aiperf::timing::AgenticPhases;
using aiperf::timing::build_trajectories;
using aiperf::timing::ConversationInfo;
using aiperf::timing::PhaseConfig;
using aiperf::timing::PhaseRunner;
using aiperf::timing::plan_agentic_phases;
using aiperf::timing::ReplayStart;
using aiperf::timing::Sampling;
using aiperf::timing::TrajectoryOptions;
using aiperf::timing::TrajectorySet;
using aiperf::timing::testing::FakeSink;

namespace {
constexpr int64_t kMs = 1'000'000;
constexpr int64_t kS = 1'000'000'000;
const double kNaN = std::nan("");

// Two weka-like traces: a's calls at 0, 1, 5 and 9 s; b's at 0 and 60 s. Delays are the idle
// gaps the loader derives (the gap minus the previous call's api_time).
std::vector<ConversationInfo> weka_like() {
  return {{"trace_a", 4, {0, 1000, 5000, 9000}, {kNaN, 300, 2000, 1000}}, {"trace_b", 2, {0, 60000}, {kNaN, 59500}}};
}

TrajectorySet halfway(const std::vector<ConversationInfo>& convs, uint32_t lanes = 2) {
  TrajectoryOptions o;
  o.lanes = lanes;
  o.start_min_ratio = 0.5;  // t* exactly halfway through each trace
  o.start_max_ratio = 0.5;
  o.sampling = Sampling::kSequential;
  std::mt19937_64 rng(7);
  return build_trajectories(convs, o, rng);
}
}  // namespace

TEST_CASE("trajectories: t* between the ratios splits each trace into a warmed and a profiled turn") {
  const auto set = halfway(weka_like());
  REQUIRE(set.lanes.size() == 2);
  CHECK(set.draws == 2);
  const auto& a = set.lanes[0];
  CHECK(a.conversation == 0);
  CHECK(*a.t_star_ms == 4500);
  CHECK(a.next_turn == 2);   // the first call at or after t* (5 s)
  CHECK(*a.warm_turn == 1);  // the last one before it (1 s)
  CHECK(*a.warm_ts_ms == 1000);
  CHECK(*a.next_ts_ms == 5000);
  const auto& b = set.lanes[1];
  CHECK(b.conversation == 1);
  CHECK(*b.t_star_ms == 30000);
  CHECK(b.next_turn == 1);
  CHECK(*b.warm_turn == 0);
  CHECK(a.correlation_id != b.correlation_id);

  // Three lanes over two traces: sequential sampling wraps, the third lane is trace_a again.
  const auto three = halfway(weka_like(), 3);
  REQUIRE(three.lanes.size() == 3);
  CHECK(three.lanes[2].conversation == 0);
  CHECK(three.draws == 3);

  // min = 0: t* at the first call leaves nothing to warm.
  TrajectoryOptions o;
  o.lanes = 1;
  o.start_min_ratio = 0;
  o.start_max_ratio = 0;
  std::mt19937_64 rng(1);
  const auto start = build_trajectories(weka_like(), o, rng);
  REQUIRE(start.lanes.size() == 1);
  CHECK(start.lanes[0].next_turn == 0);
  CHECK_FALSE(start.lanes[0].warm_turn);
}

TEST_CASE("trajectories: a trace without timestamps splits by turn count, a single-turn one is skipped") {
  std::vector<ConversationInfo> convs{{"one", 1}, {"five", 5}, {"two", 2}};
  TrajectoryOptions o;
  o.lanes = 2;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::mt19937_64 rng(seed);
    const auto set = build_trajectories(convs, o, rng);
    REQUIRE(set.lanes.size() == 2);
    CHECK(set.draws == 3);  // "one" drawn and skipped
    CHECK(set.lanes[0].conversation == 1);
    // n = 5, ratios 0.25 / 0.75: k in [int(1.25), min(int(3.75), 3)] = [1, 3].
    CHECK(*set.lanes[0].warm_turn >= 1);
    CHECK(*set.lanes[0].warm_turn <= 3);
    CHECK(set.lanes[0].next_turn == *set.lanes[0].warm_turn + 1);
    CHECK(set.lanes[1].conversation == 2);
    CHECK(*set.lanes[1].warm_turn == 0);  // n = 2: only k = 0 leaves a profiled turn
    CHECK_FALSE(set.lanes[0].t_star_ms);
  }
}

TEST_CASE("phase starts: warmup aligned on t*, profiling at each lane's offset, burst, the trace idle cap") {
  const auto set = halfway(weka_like());
  AgenticPhases spread = plan_agentic_phases(set.lanes, AgenticOptions{});
  REQUIRE(spread.warmup.size() == 2);
  // Leads: a 4.5 - 1 = 3.5 s, b 30 s. The furthest from its t* (b) goes first.
  CHECK(spread.warmup[0].conversation == 0);
  CHECK(spread.warmup[0].first_turn == 1);
  CHECK(spread.warmup[0].end_turn == 2);
  CHECK(spread.warmup[0].offset_ns == 26500 * kMs);
  CHECK(spread.warmup[1].first_turn == 0);
  CHECK(spread.warmup[1].end_turn == 1);
  CHECK(spread.warmup[1].offset_ns == 0);
  REQUIRE(spread.profiling.size() == 2);
  CHECK(spread.profiling[0].first_turn == 2);
  CHECK(spread.profiling[0].end_turn == 0);
  CHECK(spread.profiling[0].offset_ns == 500 * kMs);
  CHECK(spread.profiling[1].first_turn == 1);
  CHECK(spread.profiling[1].offset_ns == 30000 * kMs);
  CHECK(spread.profiling[0].correlation_id == spread.warmup[0].correlation_id);

  AgenticOptions burst;
  burst.burst_phase_starts = true;
  const AgenticPhases b = plan_agentic_phases(set.lanes, burst);
  for (const auto* list : {&b.warmup, &b.profiling})
    for (const ReplayStart& s : *list) CHECK(s.offset_ns == 0);

  AgenticOptions capped;
  capped.trace_idle_gap_cap_s = 10;
  const AgenticPhases c = plan_agentic_phases(set.lanes, capped);
  CHECK(c.warmup[0].offset_ns == 6500 * kMs);  // leads 3.5 s and min(30, 10) s
  CHECK(c.warmup[1].offset_ns == 0);
  CHECK(c.profiling[0].offset_ns == 500 * kMs);
  CHECK(c.profiling[1].offset_ns == 10000 * kMs);  // the leading idle capped at 10 s
}

TEST_CASE("agentic warmup: one request per lane at its offset, and the idle cap pulls the next one in") {
  const auto set = halfway(weka_like());
  AgenticPhases phases = plan_agentic_phases(set.lanes, AgenticOptions{});
  FakeSink sink;
  PhaseConfig cfg;
  cfg.phase = aiperf::proto::PHASE_WARMUP;
  cfg.agentic = true;
  cfg.request_count = phases.warmup.size();
  cfg.replay_starts = phases.warmup;
  cfg.system_idle_cap_ns = 10 * kS;
  cfg.max_tokens_override = 1;
  PhaseRunner runner(cfg, weka_like(), sink, std::mt19937_64(3));
  runner.start();
  sink.advance_to(0);
  REQUIRE(sink.sent.size() == 1);  // trace_b's turn 0 at 0 s
  CHECK(sink.sent[0].second.conversation_id() == "trace_b");
  CHECK(sink.sent[0].second.turn_index() == 0);
  CHECK(sink.sent[0].second.num_turns() == 1);
  CHECK(sink.sent[0].second.x_correlation_id() == set.lanes[1].correlation_id);
  CHECK(sink.sent[0].second.phase() == aiperf::proto::PHASE_WARMUP);
  CHECK(sink.sent[0].second.max_tokens_override() == 1);

  // It returns at 1 s: nothing in flight, trace_a's start (26.5 s) is 25.5 s away; the cap
  // leaves 10 s, so every pending timer moves 15.5 s earlier: trace_a goes at 11 s.
  sink.advance_to(1 * kS);
  runner.on_return(sink.ret(0));
  CHECK(runner.stats().idle_jumps == 1);
  CHECK(runner.stats().idle_skipped_ns == 15500 * kMs);
  sink.advance_to(11 * kS - 1);
  CHECK(sink.sent.size() == 1);
  sink.advance_to(11 * kS);
  REQUIRE(sink.sent.size() == 2);
  const Credit& a = sink.sent[1].second;
  CHECK(a.conversation_id() == "trace_a");
  CHECK(a.turn_index() == 1);
  CHECK(a.num_turns() == 2);  // the warmed turn alone: the session ends with it
  CHECK(a.intended_send_wall_ns() == 1'000'000 + 11 * kS);
  CHECK(a.x_correlation_id() == set.lanes[0].correlation_id);
  CHECK(runner.stats().sending_complete);
  CHECK_FALSE(runner.stats().complete);
  sink.advance_to(12 * kS);
  runner.on_return(sink.ret(1));
  CHECK(runner.stats().complete);
  CHECK(sink.sent.size() == 2);
}

TEST_CASE("agentic profiling: lanes resume at their offsets, follow the delays, recycle into fresh sessions") {
  const auto set = halfway(weka_like());
  AgenticPhases phases = plan_agentic_phases(set.lanes, AgenticOptions{});
  FakeSink sink;
  PhaseConfig cfg;
  cfg.agentic = true;
  cfg.recycle = true;
  cfg.concurrency = 2;
  cfg.duration_ns = 100 * kS;
  cfg.replay_starts = phases.profiling;
  cfg.sampler_skip = set.draws;
  cfg.sampling = Sampling::kSequential;
  cfg.system_idle_cap_ns = 10 * kS;
  PhaseRunner runner(cfg, weka_like(), sink, std::mt19937_64(4));
  runner.start();
  sink.advance_to(500 * kMs - 1);
  CHECK(sink.sent.empty());  // both lanes hold their slot until their start: no fresh session
  sink.advance_to(500 * kMs);
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.conversation_id() == "trace_a");
  CHECK(sink.sent[0].second.turn_index() == 2);
  CHECK(sink.sent[0].second.num_turns() == 4);
  CHECK(sink.sent[0].second.x_correlation_id() == set.lanes[0].correlation_id);
  CHECK(sink.sent[0].second.intended_send_wall_ns() == 1'000'000 + 500 * kMs);
  CHECK_FALSE(sink.sent[0].second.has_max_tokens_override());

  // Turn 3 waits its recorded 1 s after turn 2's answer (1 s): at 2 s.
  sink.advance_to(1 * kS);
  runner.on_return(sink.ret(0));
  sink.advance_to(2 * kS - 1);
  CHECK(sink.sent.size() == 1);
  sink.advance_to(2 * kS);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.turn_index() == 3);
  CHECK(sink.sent[1].second.x_correlation_id() == set.lanes[0].correlation_id);

  // The session's last turn returns: its lane starts the next trace of the sampling order
  // (after the two drawn for the lanes: trace_a again) at turn 0, as a new session.
  sink.advance_to(2500 * kMs);
  runner.on_return(sink.ret(1));
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[2].second.conversation_id() == "trace_a");
  CHECK(sink.sent[2].second.turn_index() == 0);
  CHECK(sink.sent[2].second.x_correlation_id() != set.lanes[0].correlation_id);

  // Its answer at 3 s: turn 1 is due 300 ms later, trace_b's lane at 30 s; nothing in flight,
  // both within the 10 s cap of the earliest: no shift. Without the answer to turn 1, the next
  // idle stretch starts at 3.3 s + its return.
  sink.advance_to(3 * kS);
  runner.on_return(sink.ret(2));
  CHECK(runner.stats().idle_jumps == 0);
  sink.advance_to(3300 * kMs);
  REQUIRE(sink.sent.size() == 4);
  CHECK(sink.sent[3].second.turn_index() == 1);
  // Turn 1 returns at 4 s: turn 2 is due 2 s later (6 s), so still no shift.
  sink.advance_to(4 * kS);
  runner.on_return(sink.ret(3));
  sink.advance_to(6 * kS);
  REQUIRE(sink.sent.size() == 5);
  CHECK(sink.sent[4].second.turn_index() == 2);
  sink.advance_to(6500 * kMs);
  runner.on_return(sink.ret(4));
  sink.advance_to(7500 * kMs);
  REQUIRE(sink.sent.size() == 6);  // turn 3, 1 s after
  sink.advance_to(8 * kS);
  runner.on_return(sink.ret(5));
  // Recycled again (trace_b is next in order) at 8 s: turn 0 now, turn 1 59.5 s after its answer.
  REQUIRE(sink.sent.size() == 7);
  CHECK(sink.sent[6].second.conversation_id() == "trace_b");
  CHECK(sink.sent[6].second.turn_index() == 0);
  CHECK(runner.stats().idle_jumps == 0);
  // Its answer at 9 s: pending are trace_b's resumed lane (30 s) and the recycled turn 1
  // (68.5 s). Idle, the earliest is 21 s away: all move 11 s earlier, keeping their spacing.
  sink.advance_to(9 * kS);
  runner.on_return(sink.ret(6));
  CHECK(runner.stats().idle_jumps == 1);
  CHECK(runner.stats().idle_skipped_ns == 11 * kS);
  sink.advance_to(19 * kS);
  REQUIRE(sink.sent.size() == 8);
  CHECK(sink.sent[7].second.conversation_id() == "trace_b");
  CHECK(sink.sent[7].second.turn_index() == 1);
  CHECK(sink.sent[7].second.x_correlation_id() == set.lanes[1].correlation_id);
  CHECK(sink.sent[7].second.intended_send_wall_ns() == 1'000'000 + 19 * kS);
  // The recycled session's turn 1 keeps its 38.5 s distance behind it (68.5 - 30).
  sink.advance_to(57500 * kMs - 1);
  CHECK(sink.sent.size() == 8);
  sink.advance_to(57500 * kMs);
  REQUIRE(sink.sent.size() == 9);
  CHECK(sink.sent[8].second.turn_index() == 1);
  CHECK(sink.sent[8].second.x_correlation_id() == sink.sent[6].second.x_correlation_id());
}

TEST_CASE("agentic profiling: a context-overflow answer ends the lane's session, another error does not") {
  const auto set = halfway(weka_like());
  AgenticPhases phases = plan_agentic_phases(set.lanes, AgenticOptions{});
  FakeSink sink;
  PhaseConfig cfg;
  cfg.agentic = true;
  cfg.recycle = true;
  cfg.concurrency = 2;
  cfg.duration_ns = 100 * kS;
  cfg.replay_starts = phases.profiling;
  cfg.sampler_skip = set.draws;
  cfg.sampling = Sampling::kSequential;
  cfg.overflow_substrings = aiperf::config::AgenticReplayConfig{}.context_overflow_substrings;
  PhaseRunner runner(cfg, weka_like(), sink, std::mt19937_64(4));
  runner.start();
  sink.advance_to(500 * kMs);
  REQUIRE(sink.sent.size() == 1);  // trace_a turn 2 of 4
  // A 500 on turn 2: turn 3 still goes, 1 s after.
  sink.advance_to(600 * kMs);
  auto failed = sink.ret(0);
  failed.set_error("Internal Server Error");
  runner.on_return(failed);
  sink.advance_to(1600 * kMs);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.turn_index() == 3);
  // A context overflow on the last turn changes nothing (the session ends anyway)...
  auto last = sink.ret(1);
  last.set_error("This model's MAXIMUM CONTEXT length is 8 tokens");
  runner.on_return(last);
  CHECK(runner.stats().context_overflows == 0);
  REQUIRE(sink.sent.size() == 3);  // the recycled lane: trace_a turn 0
  CHECK(sink.sent[2].second.turn_index() == 0);
  // ...on an earlier turn it ends the session: the lane starts the next trace at once.
  sink.advance_to(1700 * kMs);
  auto overflow = sink.ret(2);
  overflow.set_error(R"({"error":{"message":"prompt is too long: 9000 tokens > 8192 maximum"}})");
  runner.on_return(overflow);
  CHECK(runner.stats().context_overflows == 1);
  REQUIRE(sink.sent.size() == 4);
  CHECK(sink.sent[3].second.conversation_id() == "trace_b");
  CHECK(sink.sent[3].second.turn_index() == 0);
  CHECK(sink.sent[3].second.x_correlation_id() != sink.sent[2].second.x_correlation_id());
  sink.advance_to(3 * kS);
  CHECK(sink.sent.size() == 4);  // trace_a's turn 1 never goes
}

TEST_CASE("context overflow: AIPerf's substrings, any case") {
  const auto& subs = aiperf::config::AgenticReplayConfig{}.context_overflow_substrings;
  CHECK(aiperf::config::is_context_overflow("Error code: context_length_exceeded", subs));
  CHECK(aiperf::config::is_context_overflow("exceeds the Context Length", subs));
  CHECK_FALSE(aiperf::config::is_context_overflow("rate limited", subs));
  CHECK_FALSE(aiperf::config::is_context_overflow("context length", {}));
}

TEST_CASE("shiftable timers: a shift keeps order and spacing, never goes before now") {
  FakeSink sink;
  aiperf::timing::ShiftableTimers timers(sink);
  std::vector<std::pair<int64_t, int64_t>> fired;  // (now, due)
  for (int64_t at : {30 * kS, 32 * kS, 50 * kS})
    timers.call_at(at, [&](int64_t due) { fired.emplace_back(sink.now, due); });
  sink.advance_to(5 * kS);
  CHECK(timers.cap_pending_delay(3 * kS) == 22 * kS);  // earliest 30 s -> 8 s
  CHECK(timers.cap_pending_delay(3 * kS) == 0);
  sink.advance_to(100 * kS);
  REQUIRE(fired.size() == 3);
  CHECK(fired[0] == std::make_pair(8 * kS, 8 * kS));
  CHECK(fired[1] == std::make_pair(10 * kS, 10 * kS));
  CHECK(fired[2] == std::make_pair(28 * kS, 28 * kS));
}
