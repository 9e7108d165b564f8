// User-centric rate mode: the virtual-history plan (AIPerf's documented 15-user example) and
// the PhaseRunner schedule it drives, with fake time.
#include <catch2/catch.hpp>

#include "fake_credit_sink.h"
#include "phase_runner.h"
#include "user_centric_plan.h"

using aiperf::timing::ConversationInfo;
using aiperf::timing::InitialUser;
using aiperf::timing::PhaseConfig;
using aiperf::timing::PhaseRunner;
using aiperf::timing::plan_initial_users;
using aiperf::timing::testing::FakeSink;
using aiperf::timing::testing::conversations;

namespace {
constexpr int64_t kSec = 1'000'000'000;
}  // namespace

TEST_CASE("15 users with 20-turn sessions start in steady state as AIPerf documents") {
  // AIPerf's table (1 QPS): user -> turns left, first send second. User 1 finished before t=0.
  const std::vector<InitialUser> expected = {
      {2, 2, 4},   {3, 3, 8},   {4, 4, 12},  {5, 6, 1},   {6, 7, 5},   {7, 8, 9},   {8, 9, 13}, {9, 11, 2},
      {10, 12, 6}, {11, 13, 10}, {12, 14, 14}, {13, 16, 3}, {14, 17, 7}, {15, 18, 11}, {16, 0, 0}};
  const auto users = plan_initial_users(15, 20);
  REQUIRE(users.size() == expected.size());
  for (size_t i = 0; i < users.size(); ++i) {
    INFO("user " << expected[i].user_id);
    CHECK(users[i].user_id == expected[i].user_id);
    CHECK(users[i].max_turns == expected[i].max_turns);
    CHECK(users[i].order == expected[i].order);
  }
}

TEST_CASE("a common factor of users and session lifetime spreads the start slots with a coprime step") {
  // 4 users, 3 turns: lifetime 2, gcd(4, 2) = 2, step 3. Ages 8,6,4,2 -> session ages 2,1,1,0.
  const auto users = plan_initial_users(4, 3);
  REQUIRE(users.size() == 4);
  CHECK(users[0].user_id == 2);
  CHECK(users[0].max_turns == 1);
  CHECK(users[0].order == 4 - 3);  // slot 1*3 mod 4
  CHECK(users[1].user_id == 3);
  CHECK(users[1].max_turns == 1);
  CHECK(users[1].order == 4 - 2);  // slot 2*3 mod 4
  CHECK(users[2].user_id == 4);
  CHECK(users[2].max_turns == 2);
  CHECK(users[2].order == 4 - 1);  // slot 3*3 mod 4
  CHECK(users[3].user_id == 5);
  CHECK(users[3].max_turns == 0);
  CHECK(users[3].order == 0);
}

TEST_CASE("user-centric users send a turn every num_users/rate seconds and are replaced on schedule") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.num_users = 2;
  cfg.user_rate = 2;  // stagger 0.5 s, turn gap 1 s
  cfg.request_count = 100;
  // 3 turns per conversation: lifetime 2, gcd(2, 2) = 2 -> coprime step 1.
  // i=0: age 4, session age 2 -> done before t=0 (user 1). i=1: age 2, session age 1 -> 1 turn, slot 1, order 1.
  // Fresh user 3: all 3 turns at t=0.
  PhaseRunner runner(cfg, conversations(4, 3), sink, std::mt19937_64(7));
  runner.start();
  sink.advance_to(0);
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.x_correlation_id() == "3");
  CHECK(sink.sent[0].second.num_turns() == 3);
  CHECK(sink.sent[0].second.intended_send_wall_ns() == sink.wall_ns());

  sink.advance_to(kSec / 2);  // user 2 (order 1) fires after one stagger, with its one turn
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.x_correlation_id() == "2");
  CHECK(sink.sent[1].second.num_turns() == 1);

  // User 3 answers at 0.2 s: its next turn waits for the turn gap (t = 1 s), no earlier.
  sink.now = kSec / 5;
  runner.on_return(sink.ret(0));
  sink.advance_to(kSec - 1);
  CHECK(sink.sent.size() == 2);
  sink.advance_to(kSec);
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[2].second.x_correlation_id() == "3");
  CHECK(sink.sent[2].second.turn_index() == 1);

  // User 2's replacement (user 4) joins at 0.5 + 1 * 1 s = 1.5 s, although user 2 never answered.
  sink.advance_to(3 * kSec / 2);
  REQUIRE(sink.sent.size() == 4);
  CHECK(sink.sent[3].second.x_correlation_id() == "4");
  CHECK(sink.sent[3].second.turn_index() == 0);
  CHECK(sink.sent[3].second.num_turns() == 3);

  // A late answer (user 3 turn 1 answers at 2.7 s, after its 2 s slot) sends at once.
  sink.now = 27 * kSec / 10;
  runner.on_return(sink.ret(2));
  REQUIRE(sink.sent.size() == 5);
  CHECK(sink.sent[4].second.x_correlation_id() == "3");
  CHECK(sink.sent[4].second.turn_index() == 2);
}

TEST_CASE("user-centric mode stops at the request count and every credit completes the phase") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.num_users = 3;
  cfg.user_rate = 30;
  cfg.request_count = 12;
  PhaseRunner runner(cfg, conversations(5, 4), sink, std::mt19937_64(3));
  runner.start();
  size_t returned = 0;
  for (int64_t t = 0; t <= 20 * kSec && !runner.stats().complete; t += kSec / 100) {
    sink.advance_to(t);
    while (returned < sink.sent.size()) runner.on_return(sink.ret(returned++));
  }
  CHECK(sink.sent.size() == 12);
  CHECK(runner.stats().sent == 12);
  CHECK(runner.stats().completed == 12);
  CHECK(runner.stats().complete);
}
