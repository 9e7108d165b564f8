// PhaseRunner and dag_jsonl SPAWN branches (fake sink, hand-driven time): children start when the
// spawning turn returns, on the parent's worker and without a slot, the join turn waits for every
// child, a spawn on the last turn is fire-and-forget, pre-session spawns start with the parent,
// branch targets are never sampled, and the request count stops children too.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "fake_credit_sink.h"
#include "phase_runner.h"

using aiperf::proto::Credit;
using aiperf::timing::ConversationInfo;
using aiperf::timing::PhaseConfig;
using aiperf::timing::PhaseRunner;
using aiperf::timing::Sampling;
using aiperf::timing::SpawnInfo;
using aiperf::timing::testing::FakeSink;

namespace {

ConversationInfo conv(const std::string& id, uint32_t turns, bool child = false) {
  ConversationInfo c{id, turns};
  c.branch_child = child;
  return c;
}

SpawnInfo spawn(uint32_t after_turn, std::vector<size_t> children, std::optional<uint32_t> join = std::nullopt) {
  SpawnInfo s;
  s.after_turn = after_turn;
  s.children = std::move(children);
  s.join_turn = join;
  return s;
}

// "conversation:turn" of every credit sent so far, in order.
std::vector<std::string> sent_turns(const FakeSink& sink, size_t from = 0) {
  std::vector<std::string> out;
  for (size_t i = from; i < sink.sent.size(); ++i)
    out.push_back(sink.sent[i].second.conversation_id() + ":" + std::to_string(sink.sent[i].second.turn_index()));
  return out;
}

// The index in sink.sent of the credit for conversation `id`, turn `turn`.
size_t credit_of(const FakeSink& sink, const std::string& id, uint32_t turn) {
  for (size_t i = 0; i < sink.sent.size(); ++i)
    if (sink.sent[i].second.conversation_id() == id && sink.sent[i].second.turn_index() == turn) return i;
  FAIL("no credit for " << id << ":" << turn);
  return 0;
}

}  // namespace

TEST_CASE("spawn: children start on the spawning turn's return, the join turn waits for all of them") {
  // r (3 turns) spawns c1 (2 turns) and c2 (1 turn) after turn 0, joined on turn 1, and c3 after
  // its last turn (fire-and-forget).
  std::vector<ConversationInfo> convs{conv("r", 3), conv("c1", 2, true), conv("c2", 1, true), conv("c3", 1, true)};
  convs[0].spawns = {spawn(0, {1, 2}, 1u), spawn(2, {3})};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.session_count = 1;
  cfg.sampling = Sampling::kSequential;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(1));
  runner.start();
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r:0"});

  runner.on_return(sink.ret(0));
  // Both children at once, on the parent's worker, as sessions of their own; r's turn 1 waits.
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r:0", "c1:0", "c2:0"});
  for (size_t i : {1, 2}) {
    CHECK(sink.sent[i].first == sink.sent[0].first);
    CHECK(sink.sent[i].second.x_correlation_id() != sink.sent[0].second.x_correlation_id());
  }
  CHECK(sink.sent[1].second.num_turns() == 2);

  runner.on_return(sink.ret(credit_of(sink, "c2", 0)));  // c2 done, c1 still running
  sink.advance_to(sink.now);
  CHECK(sink.sent.size() == 3);
  runner.on_return(sink.ret(credit_of(sink, "c1", 0)));
  REQUIRE(sent_turns(sink, 3) == std::vector<std::string>{"c1:1"});
  CHECK(sink.sent[3].second.x_correlation_id() == sink.sent[1].second.x_correlation_id());
  runner.on_return(sink.ret(credit_of(sink, "c1", 1)));  // the last child ends: the join opens
  sink.advance_to(sink.now);
  REQUIRE(sent_turns(sink, 4) == std::vector<std::string>{"r:1"});
  CHECK(sink.sent[4].second.x_correlation_id() == sink.sent[0].second.x_correlation_id());

  runner.on_return(sink.ret(4));
  runner.on_return(sink.ret(credit_of(sink, "r", 2)));
  // The last turn's spawn: c3 runs after the session ended (the one session was its only root).
  REQUIRE(sent_turns(sink, 5) == std::vector<std::string>{"r:2", "c3:0"});
  CHECK_FALSE(runner.stats().sending_complete);  // c3 still to come back
  runner.on_return(sink.ret(credit_of(sink, "c3", 0)));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().sent == 7);
}

TEST_CASE("spawn: children hold no slot and branch targets are never sampled") {
  // Roots r0, r1 of one turn each spawn k after it (fire-and-forget); k is a branch target.
  std::vector<ConversationInfo> convs{conv("r0", 1), conv("k", 1, true), conv("r1", 1)};
  convs[0].spawns = {spawn(0, {1})};
  convs[2].spawns = {spawn(0, {1})};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.request_count = 6;
  cfg.sampling = Sampling::kSequential;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(2));
  runner.start();
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r0:0"});
  runner.on_return(sink.ret(0));
  // r0's slot frees as its child starts: r1 goes at once beside k.
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r0:0", "k:0", "r1:0"});
  runner.on_return(sink.ret(2));
  REQUIRE(sent_turns(sink, 3) == std::vector<std::string>{"k:0", "r0:0"});
  runner.on_return(sink.ret(1));
  runner.on_return(sink.ret(3));
  runner.on_return(sink.ret(4));
  // k only ever starts from a spawn: 3 of 6 credits (r0, r1, r0 spawned it), the roots alternate.
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r0:0", "k:0", "r1:0", "k:0", "r0:0", "k:0"});
  CHECK(runner.stats().sending_complete);
  runner.on_return(sink.ret(5));
  CHECK(runner.stats().complete);
}

TEST_CASE("spawn: a join later than the next turn lets the parent run on until that turn") {
  std::vector<ConversationInfo> convs{conv("r", 3), conv("c", 1, true)};
  convs[0].spawns = {spawn(0, {1}, 2u)};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.session_count = 1;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(3));
  runner.start();
  runner.on_return(sink.ret(0));
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r:0", "c:0", "r:1"});
  runner.on_return(sink.ret(2));  // r's turn 2 is the join: held while c runs
  sink.advance_to(sink.now);
  CHECK(sink.sent.size() == 3);
  runner.on_return(sink.ret(1));
  sink.advance_to(sink.now);
  REQUIRE(sent_turns(sink, 3) == std::vector<std::string>{"r:2"});
  runner.on_return(sink.ret(3));
  CHECK(runner.stats().complete);
}

TEST_CASE("spawn: pre-session children start with the parent; the join turn keeps its think time") {
  std::vector<ConversationInfo> convs{conv("r", 2), conv("p", 1, true), conv("c", 1, true)};
  SpawnInfo pre = spawn(0, {1});
  pre.pre_session = true;
  convs[0].spawns = {pre, spawn(0, {2}, 1u)};
  convs[0].delay_ms = {0, 250};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.session_count = 1;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(4));
  runner.start();
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"p:0", "r:0"});
  runner.on_return(sink.ret(1));
  REQUIRE(sent_turns(sink, 2) == std::vector<std::string>{"c:0"});
  sink.advance_to(1'000'000);
  runner.on_return(sink.ret(2));  // the join opens at 1 ms; turn 1 waits its 250 ms after that
  sink.advance_to(250'999'999);
  CHECK(sink.sent.size() == 3);
  sink.advance_to(251'000'000);
  REQUIRE(sent_turns(sink, 3) == std::vector<std::string>{"r:1"});
  runner.on_return(sink.ret(0));
  runner.on_return(sink.ret(3));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().sent == 4);
}

TEST_CASE("spawn: the request count stops children, and a parent waiting on them ends") {
  std::vector<ConversationInfo> convs{conv("r", 2), conv("c", 2, true)};
  convs[0].spawns = {spawn(0, {1}, 1u)};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.request_count = 2;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(5));
  runner.start();
  runner.on_return(sink.ret(0));
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r:0", "c:0"});
  CHECK(runner.stats().sending_complete);
  runner.on_return(sink.ret(1));  // c's turn 1 and r's turn 1 are past the count
  sink.advance_to(sink.now);
  CHECK(sink.sent.size() == 2);
  CHECK(runner.stats().complete);
}

TEST_CASE("fork: the forking turn's credit keeps its context, each child's first credit names it") {
  std::vector<ConversationInfo> convs{conv("r", 2), conv("f1", 2, true), conv("f2", 1, true)};
  SpawnInfo fork = spawn(1, {1, 2});
  fork.fork = true;
  convs[0].spawns = {fork};
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.session_count = 1;
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(6));
  runner.start();
  runner.on_return(sink.ret(0));
  REQUIRE(sent_turns(sink) == std::vector<std::string>{"r:0", "r:1"});
  CHECK(sink.sent[0].second.fork_children() == 0);
  CHECK(sink.sent[1].second.fork_children() == 2);  // the worker keeps r's context for 2 children
  runner.on_return(sink.ret(1));
  REQUIRE(sent_turns(sink, 2) == std::vector<std::string>{"f1:0", "f2:0"});
  for (size_t i : {2, 3}) {
    CHECK(sink.sent[i].second.fork_parent() == sink.sent[0].second.x_correlation_id());
    CHECK(sink.sent[i].second.fork_parent_turn() == 1);
    CHECK(sink.sent[i].first == sink.sent[0].first);  // the worker that holds the context
  }
  runner.on_return(sink.ret(2));
  REQUIRE(sent_turns(sink, 4) == std::vector<std::string>{"f1:1"});
  CHECK(sink.sent[4].second.fork_parent().empty());  // only the first turn adopts the context
  runner.on_return(sink.ret(3));
  runner.on_return(sink.ret(4));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().sent == 5);
}
