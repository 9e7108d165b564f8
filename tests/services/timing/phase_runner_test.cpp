// PhaseRunner with a fake credit sink and hand-driven time: exact credit sequences.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "phase_runner.h"

using aiperf::proto::Credit;
using aiperf::proto::CreditReturn;
using aiperf::timing::ConversationInfo;
using aiperf::timing::PhaseConfig;
using aiperf::timing::PhaseRunner;

namespace {

struct FakeSink : aiperf::timing::CreditSink {
  std::vector<std::string> workers{"w0", "w1"};
  std::map<std::string, int> load;
  std::vector<std::pair<std::string, Credit>> sent;
  std::vector<uint64_t> cancelled;

  std::string pick_worker() override {
    if (workers.empty()) return "";
    std::string best = workers[0];
    for (const auto& w : workers)
      if (load[w] < load[best]) best = w;
    return best;
  }
  void send(const std::string& w, const Credit& c) override {
    ++load[w];
    sent.emplace_back(w, c);
  }
  void cancel(const std::string&, const std::vector<uint64_t>& ids) override {
    cancelled.insert(cancelled.end(), ids.begin(), ids.end());
  }
  CreditReturn ret(size_t i, bool cancelled_flag = false) {
    --load[sent[i].first];
    CreditReturn r;
    *r.mutable_credit() = sent[i].second;
    r.set_cancelled(cancelled_flag);
    return r;
  }
};

std::vector<ConversationInfo> conversations(int n, uint32_t turns = 1) {
  std::vector<ConversationInfo> out;
  for (int i = 0; i < n; ++i) out.push_back({"c" + std::to_string(i), turns});
  return out;
}

}  // namespace

TEST_CASE("concurrency fills N slots, refills on each return, stops at the request count") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 3;
  cfg.request_count = 5;
  PhaseRunner runner(cfg, conversations(10), sink, std::mt19937_64(1));
  runner.start(0, 1000);
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[0].second.id() == 0);
  CHECK(sink.sent[2].second.id() == 2);
  CHECK(sink.sent[0].first != sink.sent[1].first);  // least-loaded worker first

  runner.on_return(sink.ret(0), 10, 1010);
  REQUIRE(sink.sent.size() == 4);
  runner.on_return(sink.ret(1), 20, 1020);
  REQUIRE(sink.sent.size() == 5);
  CHECK(runner.stats().sending_complete);
  CHECK_FALSE(runner.stats().complete);
  for (size_t i = 2; i < 5; ++i) runner.on_return(sink.ret(i), 30, 1030);
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
  runner.start(0, 0);
  REQUIRE(sink.sent.size() == 1);
  runner.on_return(sink.ret(0), 1, 1);
  runner.on_return(sink.ret(1), 2, 2);
  REQUIRE(sink.sent.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(sink.sent[i].second.turn_index() == static_cast<uint32_t>(i));
    CHECK(sink.sent[i].second.x_correlation_id() == sink.sent[0].second.x_correlation_id());
    CHECK(sink.sent[i].first == sink.sent[0].first);
  }
  runner.on_return(sink.ret(2), 3, 3);  // session done: a new one starts
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
  runner.start(0, 0);
  CreditReturn r = sink.ret(0);
  r.set_error("boom");
  runner.on_return(r, 1, 1);
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
  runner.start(0, 0);
  runner.on_return(sink.ret(0), 500'000'000, 0);  // before the deadline: refilled
  REQUIRE(sink.sent.size() == 3);
  runner.on_return(sink.ret(1), 1'500'000'000, 0);  // after the deadline: not refilled
  REQUIRE(sink.sent.size() == 3);
  CHECK(runner.stats().sending_complete);
  runner.cancel_in_flight();
  REQUIRE(sink.cancelled.size() == 1);
  CHECK(sink.cancelled[0] == 2);
  runner.on_return(sink.ret(2, true), 1'600'000'000, 0);
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
  runner.start(0, 0);
  CHECK(sink.sent.empty());
  sink.workers = {"late"};
  runner.on_worker_available(1, 1);
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
  runner.start(0, 0);
  CHECK(sink.sent.empty());  // rate mode sends only on arrivals
  runner.on_arrival(1, 1, 1);
  runner.on_arrival(2, 2, 2);  // slot busy: dropped
  REQUIRE(sink.sent.size() == 1);
  CHECK(sink.sent[0].second.intended_send_wall_ns() == 1);
  runner.on_return(sink.ret(0), 3, 3);
  runner.on_arrival(4, 4, 4);
  CHECK(sink.sent.size() == 2);
}

TEST_CASE("shuffle sampling visits every conversation once per pass") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 5;
  cfg.request_count = 5;
  PhaseRunner runner(cfg, conversations(5), sink, std::mt19937_64(7));
  runner.start(0, 0);
  std::set<std::string> seen;
  for (const auto& [w, c] : sink.sent) seen.insert(c.conversation_id());
  CHECK(seen.size() == 5);
}

TEST_CASE("sessions round-robin over URLs; later turns keep their session's URL") {
  FakeSink sink;
  PhaseConfig cfg;
  cfg.concurrency = 2;
  cfg.request_count = 4;
  cfg.url_count = 2;
  PhaseRunner runner(cfg, conversations(2, 2), sink, std::mt19937_64(8));
  runner.start(0, 0);
  REQUIRE(sink.sent.size() == 2);
  CHECK(sink.sent[0].second.url_index() == 0);
  CHECK(sink.sent[1].second.url_index() == 1);
  runner.on_return(sink.ret(1), 1, 1);
  REQUIRE(sink.sent.size() == 3);
  CHECK(sink.sent[2].second.turn_index() == 1);
  CHECK(sink.sent[2].second.url_index() == 1);
}
