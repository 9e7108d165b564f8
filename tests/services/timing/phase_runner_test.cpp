// PhaseRunner with a fake credit sink and hand-driven time: exact credit sequences.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <set>

#include "fake_credit_sink.h"
#include "phase_runner.h"

using aiperf::proto::Credit;
using aiperf::proto::CreditReturn;
using aiperf::timing::ConversationInfo;
using aiperf::timing::PhaseConfig;
using aiperf::timing::PhaseRunner;

using aiperf::timing::testing::FakeSink;
using aiperf::timing::testing::conversations;


TEST_CASE("concurrency fills N slots, refills on each return, stops at the request count") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 3;
  cfg.request_count = 5;
  PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(1));
  runner.start();
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[0].second.id() == 0);
  CHECK(sink.sent[2].second.id() == 2);
  CHECK(sink.sent[0].first != sink.sent[1].first);  // least-loaded worker first

  runner.on_return(sink.ret(0));
  REQUIRE(sink.sent.size() == 4);
  runner.on_return(sink.ret(1));
  REQUIRE(sink.sent.size() == 5);
  CHECK(runner.stats().sending_complete);
  CHECK_FALSE(runner.stats().complete);
  for (size_t i = 2; i < 5; ++i) runner.on_return(sink.ret(i));
  CHECK(sink.sent.size() == 5);
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 5);
}

TEST_CASE("multi-turn sessions send turns in order to the same worker and hold their slot") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.request_count = 4;
  PhaseRunner runner(cfg, conversations(2, 3), sink, std::mt19937_64(2));
  runner.start();
  REQUIRE(sink.sent.size() == 1);
  runner.on_return(sink.ret(0));
  runner.on_return(sink.ret(1));
  REQUIRE(sink.sent.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(sink.sent[i].second.turn_index() == static_cast<uint32_t>(i));
    CHECK(sink.sent[i].second.x_correlation_id() == sink.sent[0].second.x_correlation_id());
    CHECK(sink.sent[i].first == sink.sent[0].first);
  }
  runner.on_return(sink.ret(2));  // session done: a new one starts
  REQUIRE(sink.sent.size() == 4);
  CHECK(sink.sent[3].second.turn_index() == 0);
  CHECK(sink.sent[3].second.x_correlation_id() != sink.sent[0].second.x_correlation_id());
}

TEST_CASE("an error on turn k does not end the session") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.request_count = 2;
  PhaseRunner runner(cfg, conversations(1, 2), sink, std::mt19937_64(3));
  runner.start();
  CreditReturn r = sink.ret(0);
  r.set_error("boom");
  runner.on_return(r);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.turn_index() == 1);
  CHECK(runner.stats().errors == 1);
}

TEST_CASE("duration: stop_sending then grace cancellation settles every credit") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 2;
  cfg.duration_ns = 1'000'000'000;
  PhaseRunner runner(cfg, conversations(4), sink, std::mt19937_64(4));
  runner.start();
  sink.advance_to(500'000'000);
  runner.on_return(sink.ret(0));  // before the deadline: refilled
  REQUIRE(sink.sent.size() == 3);
  sink.advance_to(1'500'000'000);
  runner.on_return(sink.ret(1));  // after the deadline: not refilled
  REQUIRE(sink.sent.size() == 3);
  CHECK(runner.stats().sending_complete);
  runner.cancel_in_flight();
  REQUIRE(sink.cancelled.size() == 1);
  CHECK(sink.cancelled[0] == 2);
  runner.on_return(sink.ret(2, true));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().cancelled == 1);
}

TEST_CASE("credits wait for a worker and go out when one connects") {
  FakeSink sink;
  sink.workers.clear();
  PhaseConfig cfg;
  cfg.concurrency = 2;
  cfg.request_count = 2;
  PhaseRunner runner(cfg, conversations(2), sink, std::mt19937_64(5));
  runner.start();
  CHECK(sink.sent.empty());
  sink.workers = {"late"};
  runner.on_worker_available();
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[0].first == "late");
}

TEST_CASE("rate mode with a concurrency cap drops arrivals that find no slot") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.rate_mode = true;
  cfg.concurrency = 1;
  cfg.request_count = 10;
  PhaseRunner runner(cfg, conversations(3), sink, std::mt19937_64(6));
  runner.start();
  CHECK(sink.sent.empty());  // rate mode sends only on arrivals
  runner.on_arrival(1);
  runner.on_arrival(2);  // slot busy: dropped
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.intended_send_wall_ns() == 1);  // the arrival's intended time
  runner.on_return(sink.ret(0));
  runner.on_arrival(4);
  CHECK(sink.sent.size() == 2);
}

TEST_CASE("shuffle sampling visits every conversation once per pass") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 5;
  cfg.request_count = 5;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(7));
  runner.start();
  std::set<std::string> seen;
  for (const auto& [w, c] : sink.sent) seen.insert(c.conversation_id());
  CHECK(seen.size() == 5);
}

TEST_CASE("sessions round-robin over URLs and later turns keep their session's URL") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 2;
  cfg.request_count = 4;
  cfg.url_count = 2;
  PhaseRunner runner(cfg, conversations(2, 2), sink, std::mt19937_64(8));
  runner.start();
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[0].second.url_index() == 0);
  CHECK(sink.sent[1].second.url_index() == 1);
  runner.on_return(sink.ret(1));
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[2].second.turn_index() == 1);
  CHECK(sink.sent[2].second.url_index() == 1);
}

TEST_CASE("think time: the next turn waits its delay and the session keeps its slot") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1;
  cfg.request_count = 2;
  auto convs = conversations(1, 2);
  convs[0].delay_ms = {0, 250};
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(9));
  runner.start();
  runner.on_return(sink.ret(0));
  CHECK(sink.sent.size() == 1);  // waiting 250 ms
  sink.advance_to(249'999'999);
  CHECK(sink.sent.size() == 1);
  sink.advance_to(250'000'000);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.turn_index() == 1);
  CHECK(sink.sent[1].second.intended_send_wall_ns() == 1'000'000 + 250'000'000);
}

TEST_CASE("fixed schedule: each conversation starts at its timestamp minus the zero point") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.fixed_schedule = true;
  cfg.schedule_zero_ms = 100;
  cfg.request_count = 3;
  cfg.sampling = aiperf::timing::Sampling::kSequential;
  auto convs = conversations(3);
  convs[0].timestamp_ms = {100};
  convs[1].timestamp_ms = {150.5};
  convs[2].timestamp_ms = {1100};
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(10));
  runner.start();
  CHECK(sink.sent.empty());
  sink.advance_to(0);
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.conversation_id() == "c0");
  sink.advance_to(50'499'999);
  CHECK(sink.sent.size() == 1);
  sink.advance_to(50'500'000);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.intended_send_wall_ns() == 1'000'000 + 50'500'000);
  sink.advance_to(1'000'000'000);
  REQUIRE(sink.sent.size() == 3);
  CHECK(runner.stats().sending_complete);
}

TEST_CASE("fixed schedule with a concurrency cap queues entries instead of dropping them") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.fixed_schedule = true;
  cfg.concurrency = 1;
  auto convs = conversations(2);
  convs[0].timestamp_ms = {0};
  convs[1].timestamp_ms = {10};
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(11));
  runner.start();
  sink.advance_to(20'000'000);
  REQUIRE(sink.sent.size() == 1);  // the second entry waits for the slot
  runner.on_return(sink.ret(0));
  REQUIRE(sink.sent.size() == 2);
  runner.on_return(sink.ret(1));
  CHECK(runner.stats().complete);
}

TEST_CASE("prefill concurrency: a credit waits until an earlier one saw its first token") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 3;
  cfg.prefill_concurrency = 1;
  cfg.request_count = 3;
  PhaseRunner runner(cfg, conversations(3), sink, std::mt19937_64(12));
  runner.start();
  REQUIRE(sink.sent.size() == 1);
  runner.on_first_token(sink.sent[0].second.id());
  REQUIRE(sink.sent.size() == 2);
  runner.on_return(sink.ret(1));  // returned without a first token: frees its prefill slot too
  CHECK(sink.sent.size() == 3);
}

TEST_CASE("session count: started sessions finish, no new ones beyond the count") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 2;
  cfg.session_count = 2;
  PhaseRunner runner(cfg, conversations(4, 2), sink, std::mt19937_64(13));
  runner.start();
  REQUIRE(sink.sent.size() == 2);
  runner.on_return(sink.ret(0));
  runner.on_return(sink.ret(1));
  REQUIRE(sink.sent.size() == 4);
  CHECK(sink.sent[2].second.turn_index() == 1);
  CHECK(sink.sent[3].second.turn_index() == 1);
  runner.on_return(sink.ret(2));
  runner.on_return(sink.ret(3));
  CHECK(sink.sent.size() == 4);
  CHECK(runner.stats().complete);
}

TEST_CASE("cancellation rate: about R percent of credits carry the cancel delay") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 1000;
  cfg.request_count = 1000;
  cfg.cancellation_rate = 25;
  cfg.cancellation_delay_ns = 500'000'000;
  PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(14));
  runner.start();
  int cancelled = 0;
  for (const auto& [w, c] : sink.sent) {
    if (c.has_cancel_after_ns()) {
      ++cancelled;
      CHECK(c.cancel_after_ns() == 500'000'000);
    }
  }
  CHECK(cancelled > 200);  // binomial(1000, 0.25): 250 +- 14 (seeded, so exact for this seed)
  CHECK(cancelled < 300);
}

TEST_CASE("sequential sampling walks the dataset in order and wraps") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 5;
  cfg.request_count = 5;
  cfg.sampling = aiperf::timing::Sampling::kSequential;
  PhaseRunner runner(cfg, conversations(3), sink, std::mt19937_64(15));
  runner.start();
  std::vector<std::string> ids;
  for (const auto& [w, c] : sink.sent) ids.push_back(c.conversation_id());
  CHECK(ids == std::vector<std::string>{"c0", "c1", "c2", "c0", "c1"});
}

TEST_CASE("a schedule lead shifts the whole trace so that even the first entry is issued ahead of time") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.fixed_schedule = true;
  cfg.schedule_lead_ns = 2'000'000;
  auto convs = conversations(2);
  convs[0].timestamp_ms = {0};
  convs[1].timestamp_ms = {10};
  PhaseRunner runner(cfg, convs, sink, std::mt19937_64(12));
  runner.start();
  sink.advance_to(1'999'999);
  CHECK(sink.sent.empty());
  sink.advance_to(2'000'000);
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.intended_send_wall_ns() == 1'000'000 + 2'000'000);
  sink.advance_to(12'000'000);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.intended_send_wall_ns() == 1'000'000 + 12'000'000);
}

TEST_CASE("rate mode: a session's next turn waits for the next arrival and goes before new sessions") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.rate_mode = true;
  cfg.request_count = 4;
  cfg.sampling = aiperf::timing::Sampling::kSequential;
  PhaseRunner runner(cfg, conversations(2, 2), sink, std::mt19937_64(13));
  runner.start();
  runner.on_arrival(10);
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.conversation_id() == "c0");
  runner.on_return(sink.ret(0));
  CHECK(sink.sent.size() == 1);  // the return alone sends nothing: every credit needs an arrival
  runner.on_arrival(20);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[1].second.conversation_id() == "c0");  // the continuation, not a new session
  CHECK(sink.sent[1].second.turn_index() == 1);
  CHECK(sink.sent[1].second.intended_send_wall_ns() == 20);
  runner.on_arrival(30);
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[2].second.conversation_id() == "c1");
  CHECK(sink.sent[2].second.turn_index() == 0);
}

namespace {
CreditReturn revoked(FakeSink& sink, size_t i) {
  CreditReturn r = sink.ret(i);
  r.set_revoked(true);
  return r;
}

// A concurrency phase with `standby` standby credits.
PhaseConfig standby_phase(uint32_t concurrency, uint32_t standby) {
  PhaseConfig cfg;
  cfg.concurrency = concurrency;
  cfg.standby = standby;
  return cfg;
}
}  // namespace

TEST_CASE("standby credits wait beyond the concurrency on workers running sessions; a started one takes the freed slot") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(2, 2);
  cfg.request_count = 7;
  PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(11));
  runner.start();
  REQUIRE(sink.sent.size() == 4);
  CHECK_FALSE(sink.sent[0].second.standby());
  CHECK_FALSE(sink.sent[1].second.standby());
  CHECK(sink.sent[2].second.standby());
  CHECK(sink.sent[3].second.standby());
  CHECK(sink.sent[2].first != sink.sent[3].first);  // one per worker running a session
  CHECK(runner.standby() == 2);
  CHECK(runner.stats().sent == 4);

  // w0's session ended there and its standby started in the slot: still 2 in slots, and the
  // runner tops the standbys up again.
  const size_t on_w0 = sink.sent[2].first == sink.sent[0].first ? 2 : 3;
  runner.on_standby_started(sink.sent[on_w0].second.id());
  runner.on_return(sink.ret(0));
  CHECK(runner.standby() == 2);
  REQUIRE(sink.sent.size() == 5);
  CHECK(sink.sent[4].second.standby());
  CHECK(sink.sent[4].second.id() == 4);

  // A return with no start notice frees a slot: a waiting standby is told to take it, and
  // the standbys are topped up again.
  runner.on_return(sink.ret(1));
  CHECK(sink.promoted.size() == 1);
  REQUIRE(sink.sent.size() == 6);
  CHECK(sink.sent[5].second.standby());
  CHECK(runner.in_flight() == 4);  // two running, two standby
  CHECK(runner.standby() == 2);
}

TEST_CASE("the duration deadline withdraws unsent standby credits; a revoked return undoes its send") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(1, 1);
  cfg.duration_ns = 10;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(12));
  runner.start();
  REQUIRE(sink.sent.size() == 2);
  sink.advance_to(10);
  runner.stop_sending();
  CHECK(runner.stats().sending_complete);
  REQUIRE(sink.revoked.size() == 1);
  CHECK(sink.revoked[0] == std::make_pair(sink.sent[1].first, sink.sent[1].second.id()));
  CHECK(sink.cancelled.empty());  // the request in flight goes on

  runner.on_return(revoked(sink, 1));
  CHECK(runner.stats().sent == 1);
  CHECK(runner.standby() == 0);
  CHECK_FALSE(runner.stats().complete);
  runner.on_return(sink.ret(0));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 1);  // the withdrawn credit is no record
}

TEST_CASE("under a request count, standby credits are part of the count and are never withdrawn") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(1, 4);
  cfg.request_count = 2;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(13));
  runner.start();
  REQUIRE(sink.sent.size() == 2);
  CHECK(runner.stats().sending_complete);
  CHECK(sink.revoked.empty());
  runner.on_standby_started(sink.sent[1].second.id());
  runner.on_return(sink.ret(0));
  runner.on_return(sink.ret(1));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 2);
}

TEST_CASE("a slot freed with no standby started there goes to a standby waiting on the idlest worker") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(2, 2);
  cfg.request_count = 4;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(14));
  runner.start();
  REQUIRE(sink.sent.size() == 4);
  CHECK(runner.stats().sending_complete);  // the standbys are part of the count
  const std::string w0 = sink.sent[0].first;
  const size_t on_w0 = sink.sent[2].first == w0 ? 2 : 3;
  runner.on_return(sink.ret(0));  // w0 had no standby yet when its session ended
  REQUIRE(sink.promoted.size() == 1);
  CHECK(sink.promoted[0] == std::make_pair(w0, sink.sent[on_w0].second.id()));
  CHECK(runner.standby() == 1);
  runner.on_standby_started(sink.sent[on_w0].second.id());  // the worker's own start raced it: no change
  CHECK(runner.standby() == 1);
  CHECK(sink.promoted.size() == 1);
  for (size_t i : {size_t{1}, size_t{2}, size_t{3}}) {
    if (i == 1) runner.on_standby_started(sink.sent[5 - on_w0].second.id());  // w1's, with w1's return
    runner.on_return(sink.ret(i));
  }
  CHECK(sink.promoted.size() == 1);
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 4);
  CHECK(runner.stats().sent == 4);
}

TEST_CASE("cancelling everything names the standby credits too") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(2, 2);
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(15));
  runner.start();
  REQUIRE(sink.sent.size() == 4);
  runner.cancel_in_flight();
  CHECK(sink.cancelled.size() == 4);
  runner.on_return(revoked(sink, 2));
  runner.on_return(revoked(sink, 3));
  runner.on_return(sink.ret(0, true));
  runner.on_return(sink.ret(1, true));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 2);
  CHECK(runner.stats().cancelled == 2);
  CHECK(runner.stats().sent == 2);
}

TEST_CASE("past the deadline a freed slot starts no standby: it is withdrawn instead") {
  FakeSink sink;
  PhaseConfig cfg = standby_phase(1, 1);
  cfg.duration_ns = 10;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(16));
  runner.start();
  REQUIRE(sink.sent.size() == 2);
  sink.advance_to(11);              // the deadline timer has not fired yet
  runner.on_return(sink.ret(0));    // a slot frees with no standby started in it
  CHECK(sink.promoted.empty());
  CHECK(runner.stats().sending_complete);
  REQUIRE(sink.revoked.size() == 1);
  CHECK(sink.revoked[0].second == sink.sent[1].second.id());
  runner.on_return(revoked(sink, 1));
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 1);
}

TEST_CASE("a worker joining mid-phase ends standby refills: freed slots are balanced again") {
  FakeSink sink;
  sink.workers = {"w0"};
  PhaseConfig cfg = standby_phase(2, 2);
  cfg.duration_ns = 1000;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(17));
  runner.start();
  REQUIRE(sink.sent.size() == 4);  // two running on w0, two standby there
  sink.workers.push_back("w1");
  runner.on_worker_available();
  CHECK(sink.revoked.size() == 2);
  runner.on_return(revoked(sink, 2));
  runner.on_return(revoked(sink, 3));
  runner.on_return(sink.ret(0));
  REQUIRE(sink.sent.size() == 5);
  CHECK(sink.sent[4].first == "w1");
  CHECK_FALSE(sink.sent[4].second.standby());
  CHECK(runner.standby() == 0);
}

TEST_CASE("a lost worker's credits count as returned errors and its slots refill on the others") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 4;
  cfg.request_count = 10;
  PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(21));
  runner.start();
  REQUIRE(sink.sent.size() == 4);  // two on each worker
  sink.workers = {"w1"};           // w0's process died
  runner.on_worker_lost("w0");
  CHECK(runner.stats().completed == 2);
  CHECK(runner.stats().errors == 2);
  CHECK(runner.stats().lost == 2);
  REQUIRE(sink.sent.size() == 6);  // both freed slots refilled, on the survivor
  CHECK(sink.sent[4].first == "w1");
  CHECK(sink.sent[5].first == "w1");
  CHECK(runner.in_flight() == 4);

  // A return the dead worker could no longer send changes nothing; the rest run to the count.
  runner.on_return(sink.ret(0));
  CHECK(runner.stats().completed == 2);
  for (size_t i = 1; i < sink.sent.size(); ++i) {
    if (sink.sent[i].first == "w1") runner.on_return(sink.ret(i));
  }
  CHECK(sink.sent.size() == 10);
  CHECK(runner.stats().sending_complete);
  CHECK(runner.stats().complete);
  CHECK(runner.stats().completed == 10);  // every credit sent is settled exactly once
  CHECK(runner.stats().lost == 2);
}

TEST_CASE("a lost worker's unsent standby credits are withdrawn, a multi-turn session there ends") {
  SECTION("standby") {
    FakeSink sink;
    PhaseConfig cfg = standby_phase(2, 2);
    cfg.duration_ns = 1'000;
    PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(22));
    runner.start();
    REQUIRE(sink.sent.size() == 4);  // a running session and a standby on each worker
    sink.workers = {"w1"};
    runner.on_worker_lost("w0");
    CHECK(runner.stats().lost == 1);  // its running credit
    // The freed slot goes to w1's standby, its own standby is withdrawn (never sent), and two
    // new standbys wait on w1, the only worker running sessions.
    CHECK(sink.promoted.size() == 1);
    CHECK(runner.stats().sent == 4 - 1 + 2);
    CHECK(runner.standby() == 2);
    CHECK(sink.sent[4].first == "w1");
    CHECK(sink.sent[5].first == "w1");
  }
  SECTION("multi-turn") {
    FakeSink sink;
    sink.workers = {"w0"};
    PhaseConfig cfg;
    cfg.concurrency = 1;
    cfg.request_count = 6;
    PhaseRunner runner(cfg, conversations(3, 3), sink, std::mt19937_64(23));
    runner.start();
    runner.on_return(sink.ret(0));
    REQUIRE(sink.sent.size() == 2);  // turn 1 of the session on w0
    sink.workers = {"w1"};
    runner.on_worker_lost("w0");
    REQUIRE(sink.sent.size() == 3);
    CHECK(sink.sent[2].first == "w1");
    CHECK(sink.sent[2].second.turn_index() == 0);  // a new session: the lost one's turns end
    CHECK(runner.stats().completed == 2);
    CHECK(runner.stats().lost == 1);
  }
}
