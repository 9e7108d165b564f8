// WorkerCore's rules (services/worker/worker_core.h) on fakes: no sockets, no HTTP, fake time.
// Every credit yields one record and one return (success, transport error, failure inside
// send, cancellation); records travel in batches of 64 or after 5 ms; returns of one pass
// travel together, or within return_within_ns; multi-turn history; conversations asked once
// and failed after 90 s; cancel_after_ns and CancelCredits; scheduled sends; standby credits;
// URLs and headers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "endpoints/cache_bust.h"
#include "endpoints/endpoint.h"
#include "fakes/fake_transport.h"
#include "fakes/fake_worker_links.h"
#include "fakes/manual_timers.h"
#include "worker_core.h"

using namespace aiperf;
using worker::WorkerCore;

namespace {
constexpr Nanos kMs = 1'000'000;
constexpr Nanos kS = 1'000'000'000;

proto::Credit credit(uint64_t id, const std::string& conversation, const std::string& session, uint32_t turn = 0,
                     uint32_t turns = 1, proto::Phase phase = proto::PHASE_PROFILING) {
  proto::Credit c;
  c.set_id(id);
  c.set_phase(phase);
  c.set_conversation_id(conversation);
  c.set_x_correlation_id(session);
  c.set_turn_index(turn);
  c.set_num_turns(turns);
  return c;
}

proto::Credit standby(proto::Credit c) {
  c.set_standby(true);
  return c;
}

proto::ConversationResponse conversation(const std::string& id, const std::vector<std::string>& user_turns) {
  proto::ConversationResponse resp;
  resp.set_version(proto::PROTO_VERSION_CURRENT);
  resp.mutable_conversation()->set_session_id(id);
  for (const auto& text : user_turns) {
    proto::Text* t = resp.mutable_conversation()->add_turns()->add_texts();
    t->set_name("text");
    t->add_contents(text);
  }
  return resp;
}

std::string chat_answer(const std::string& text) {
  return R"({"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":")" +
         text + R"("},"finish_reason":"stop"}]})";
}

std::string header(const http::Request& req, const std::string& name) {
  for (const auto& [k, v] : req.headers)
    if (k == name) return v;
  return "<none>";
}

struct Worker {
  testing::ManualTimers timers;
  testing::FakeWorkerLinks links;
  testing::FakeTransport transport;
  testing::FakeSpinner spinner{timers.manual_clock()};
  WorkerCore core{"worker-7", links, transport, timers, spinner};
  config::RunConfig config;

  Worker() {
    config.endpoint.type = "chat";
    config.endpoint.model_names = {"m"};
    config.endpoint.urls = {"http://127.0.0.1:9"};
    config.benchmark_id = "bench-1";
    configure();
  }
  void configure() { core.configure(config, *endpoints::find_endpoint(config.endpoint.type)); }

  Nanos now() const { return timers.clock().steady_now(); }
  void credits(std::vector<proto::Credit> list, Nanos return_within_ns = 0) {
    proto::CreditMessage msg;
    msg.set_version(proto::PROTO_VERSION_CURRENT);
    for (auto& c : list) *msg.mutable_credits()->add_credits() = std::move(c);
    msg.mutable_credits()->set_return_within_ns(return_within_ns);
    core.on_credit_message(msg, now());
  }
  void cancel(std::vector<uint64_t> ids, bool standby_only = false) {
    proto::CreditMessage msg;
    msg.set_version(proto::PROTO_VERSION_CURRENT);
    for (uint64_t id : ids) msg.mutable_cancel()->add_credit_ids(id);
    msg.mutable_cancel()->set_standby_only(standby_only);
    core.on_credit_message(msg, now());
  }
  void answer(const std::string& id, const std::vector<std::string>& turns) {
    proto::ConversationResponse resp = conversation(id, turns);
    core.on_conversation(resp);
  }
  void respond(size_t i, const std::string& text) { transport.respond(i, chat_answer(text), now(), now()); }
  // Ends the pass and lets any 5 ms record flush happen.
  void settle() {
    links.end_pass();
    timers.advance_by(WorkerCore::kRawFlushNs);
  }
};

}  // namespace

TEST_CASE("worker core: each credit yields one record and one return, whatever its outcome", "[worker_core]") {
  Worker w;
  w.credits({credit(0, "c1", "s0"), credit(1, "c1", "s1"), credit(2, "c1", "s2")});
  REQUIRE(w.links.asked == std::vector<std::string>{"c1"});
  REQUIRE(w.transport.sent.empty());
  w.answer("c1", {"Hello"});
  REQUIRE(w.transport.sent.size() == 3);
  CHECK(w.transport.sent[0].request.url == "http://127.0.0.1:9/v1/chat/completions");
  CHECK(header(w.transport.sent[0].request, "X-Correlation-ID") == "s0");
  CHECK(header(w.transport.sent[2].request, "X-Correlation-ID") == "s2");

  w.timers.advance_to(3 * kMs);
  w.respond(0, "Hi");
  w.transport.finish(1, testing::FakeTransport::error_result(
                            http::Error{std::nullopt, "ClientConnectorError", "Connect call failed"}));
  w.transport.cancelled(2, w.now());
  REQUIRE(w.links.credit_messages.empty());  // returns wait for the end of the pass
  w.links.end_pass();
  REQUIRE(w.links.credit_messages.size() == 1);  // one message for the pass
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 3);
  CHECK(returns[0].credit_id() == 0);
  CHECK_FALSE(returns[0].has_error());
  CHECK(returns[1].credit_id() == 1);
  CHECK(returns[1].error() == "Connect call failed");
  CHECK_FALSE(returns[1].cancelled());
  CHECK(returns[2].credit_id() == 2);
  CHECK(returns[2].cancelled());

  REQUIRE(w.links.raw_batches.empty());  // records wait up to 5 ms for company
  w.timers.advance_to(8 * kMs);
  auto records = w.links.records();
  REQUIRE(records.size() == 3);
  CHECK(records[0].credit().id() == 0);
  CHECK(records[0].worker_id() == "worker-7");
  CHECK(records[0].model() == "m");
  CHECK(records[0].status_code() == 200);
  CHECK(records[0].x_request_id() == header(w.transport.sent[0].request, "X-Request-ID"));
  CHECK(records[0].x_request_id().size() == 36);
  CHECK(records[0].chunks_size() == 1);
  CHECK(records[0].input_text() == "Hello");
  CHECK_FALSE(records[0].has_error());
  CHECK(records[1].error().type() == "ClientConnectorError");
  CHECK(records[1].error().message() == "Connect call failed");
  CHECK(records[2].was_cancelled());
  CHECK(records[2].error().code() == 499);
  CHECK(records[2].cancellation_perf_ns() == 3 * kMs);

  // A request that fails inside send() ends the same way and leaves nothing behind.
  w.transport.fail_at_once = http::Error{std::nullopt, "InvalidURL", "bad url"};
  w.credits({credit(3, "c1", "s3")});
  CHECK(w.core.in_flight() == 0);
  w.settle();
  returns = w.links.returns();
  REQUIRE(returns.size() == 4);
  CHECK(returns[3].credit_id() == 3);
  CHECK(returns[3].error() == "bad url");
  records = w.links.records();
  REQUIRE(records.size() == 4);
  CHECK(records[3].error().type() == "InvalidURL");
  CHECK(w.transport.sent.size() == 4);
}

TEST_CASE("worker core: raw records go in batches of 64, or 5 ms after the first waiting one", "[worker_core]") {
  Worker w;
  std::vector<proto::Credit> list;
  for (uint64_t i = 0; i < 70; ++i) list.push_back(credit(i, "c1", "s" + std::to_string(i)));
  w.answer("c1", {"Hello"});  // not asked for: ignored
  w.credits(list);
  w.answer("c1", {"Hello"});
  REQUIRE(w.transport.sent.size() == 70);
  for (size_t i = 0; i < 64; ++i) w.respond(i, "ok");
  REQUIRE(w.links.raw_batches.size() == 1);  // the 64th sent the batch at once
  CHECK(w.links.raw_batches[0].records_size() == 64);
  CHECK(w.links.raw_batches[0].records(63).credit().id() == 63);

  w.timers.advance_to(1 * kMs);
  for (size_t i = 64; i < 70; ++i) w.respond(i, "ok");
  w.timers.advance_to(6 * kMs - 1);
  CHECK(w.links.raw_batches.size() == 1);
  w.timers.advance_to(6 * kMs);
  REQUIRE(w.links.raw_batches.size() == 2);
  CHECK(w.links.raw_batches[1].records_size() == 6);
  CHECK(w.links.raw_batches[1].records(0).credit().id() == 64);

  // Nobody to take a batch: it is kept and offered again 5 ms later.
  w.links.accept_raw = false;
  w.credits({credit(70, "c1", "s70")});
  w.respond(70, "ok");
  w.timers.advance_to(11 * kMs);
  CHECK(w.links.raw_batches.size() == 2);
  w.links.accept_raw = true;
  w.timers.advance_to(16 * kMs);
  REQUIRE(w.links.raw_batches.size() == 3);
  CHECK(w.links.raw_batches[2].records_size() == 1);
  CHECK(w.links.raw_batches[2].records(0).credit().id() == 70);
}

TEST_CASE("worker core: returns wait up to return_within_ns and leave together", "[worker_core]") {
  Worker w;
  w.answer("c1", {});
  w.credits({credit(0, "c1", "s0")});
  w.answer("c1", {"Hello"});
  w.credits({credit(1, "c1", "s1"), credit(2, "c1", "s2")}, 10 * kMs);
  w.timers.advance_to(1 * kMs);
  w.respond(0, "a");
  w.links.end_pass();
  CHECK(w.links.credit_messages.empty());  // held: the timing service may wait 10 ms
  w.timers.advance_to(4 * kMs);
  w.respond(1, "b");
  w.timers.advance_to(11 * kMs - 1);
  CHECK(w.links.credit_messages.empty());
  w.timers.advance_to(11 * kMs);  // 10 ms after the first return
  REQUIRE(w.links.credit_messages.size() == 1);
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 2);
  CHECK(returns[0].credit_id() == 0);
  CHECK(returns[1].credit_id() == 1);

  w.timers.advance_to(12 * kMs);
  w.respond(2, "c");
  w.timers.advance_to(22 * kMs);
  REQUIRE(w.links.credit_messages.size() == 2);
  CHECK(w.links.credit_messages[1].returns().returns(0).credit_id() == 2);
}

TEST_CASE("worker core: a later turn carries the earlier turns and answers; the last turn drops them",
          "[worker_core]") {
  Worker w;
  w.credits({credit(0, "c1", "sess-a", 0, 2)});
  w.answer("c1", {"Hello", "And then?"});
  REQUIRE(w.transport.sent.size() == 1);
  CHECK(w.transport.sent[0].request.body ==
        R"({"messages":[{"role":"user","content":"Hello"}],"model":"m","stream":false})");
  w.respond(0, "Hi there");

  w.credits({credit(1, "c1", "sess-a", 1, 2)});
  REQUIRE(w.transport.sent.size() == 2);
  CHECK(w.transport.sent[1].request.body ==
        R"({"messages":[{"role":"user","content":"Hello"},{"role":"assistant","content":"Hi there"},)"
        R"({"role":"user","content":"And then?"}],"model":"m","stream":false})");
  w.respond(1, "The end");

  // The session is over: the same session id's turn is sent on its own.
  w.credits({credit(2, "c1", "sess-a", 1, 2)});
  REQUIRE(w.transport.sent.size() == 3);
  CHECK(w.transport.sent[2].request.body ==
        R"({"messages":[{"role":"user","content":"And then?"}],"model":"m","stream":false})");
  w.settle();
  auto records = w.links.records();
  REQUIRE(records.size() == 2);
  CHECK(records[1].input_text() == "Hello Hi there And then?");
}

TEST_CASE("worker core: a fork child starts from its parent's context as of the forking turn", "[worker_core]") {
  Worker w;
  // The parent's single (last) turn forks two children: its context is kept for them.
  proto::Credit parent = credit(0, "p", "sess-p", 0, 1);
  parent.set_fork_children(2);
  w.credits({parent});
  w.answer("p", {"Plan"});
  w.respond(0, "Planned");
  for (uint64_t id : {1, 2}) {
    proto::Credit child = credit(id, "k", "sess-k" + std::to_string(id), 0, 1);
    child.set_fork_parent("sess-p");
    child.set_fork_parent_turn(0);
    w.credits({child});
  }
  w.answer("k", {"Go on"});
  REQUIRE(w.transport.sent.size() == 3);
  for (size_t i : {1, 2})
    CHECK(w.transport.sent[i].request.body ==
          R"({"messages":[{"role":"user","content":"Plan"},{"role":"assistant","content":"Planned"},)"
          R"({"role":"user","content":"Go on"}],"model":"m","stream":false})");
  w.respond(1, "ok");
  w.respond(2, "ok");
  // Both copies taken: a third child of that fork finds nothing, and each child's context ended with it.
  proto::Credit late = credit(3, "k", "sess-k1", 0, 1);
  late.set_fork_parent("sess-p");
  w.credits({late});
  REQUIRE(w.transport.sent.size() == 4);
  CHECK(w.transport.sent[3].request.body ==
        R"({"messages":[{"role":"user","content":"Go on"}],"model":"m","stream":false})");
}

TEST_CASE("worker core: cache bust marks each session's first user message, on every turn", "[worker_core]") {
  Worker w;
  w.config.input.prompt_shaping.cache_bust = aiperf::config::CacheBust::kFirstTurnPrefix;
  w.configure();
  w.credits({credit(0, "c1", "sess-a", 0, 2), credit(1, "c1", "sess-b", 0, 2)});
  w.answer("c1", {"Hello", "More"});
  REQUIRE(w.transport.sent.size() == 2);
  // "[rid:<12 hex>]\n\n", as JSON text.
  auto json_marker = [](const std::string& session) {
    const std::string marker =
        *endpoints::cache_bust_marker(aiperf::config::CacheBust::kFirstTurnPrefix, "bench-1", session, "c1", false);
    REQUIRE(marker.size() == 20);
    REQUIRE(marker.substr(18) == "\n\n");
    return marker.substr(0, 18) + "\\n\\n";
  };
  const std::string a = json_marker("sess-a");
  CHECK(a != json_marker("sess-b"));
  CHECK(w.transport.sent[0].request.body ==
        R"({"messages":[{"role":"user","content":")" + a + R"(Hello"}],"model":"m","stream":false})");
  CHECK(w.transport.sent[1].request.body == R"({"messages":[{"role":"user","content":")" + json_marker("sess-b") +
                                                R"(Hello"}],"model":"m","stream":false})");
  w.respond(0, "Hi");
  w.credits({credit(2, "c1", "sess-a", 1, 2)});
  REQUIRE(w.transport.sent.size() == 3);
  CHECK(w.transport.sent[2].request.body ==
        R"({"messages":[{"role":"user","content":")" + a +
            R"(Hello"},{"role":"assistant","content":"Hi"},{"role":"user","content":"More"}],)"
            R"("model":"m","stream":false})");
}

TEST_CASE("worker core: a trace's message array gets the cache-bust marker, an agentic warmup credit caps max tokens",
          "[worker_core]") {
  Worker w;
  w.config.input.prompt_shaping.cache_bust = aiperf::config::CacheBust::kFirstTurnPrefix;
  w.configure();
  // A weka-like conversation: every turn carries its whole context as a message array.
  proto::ConversationResponse resp;
  resp.set_version(proto::PROTO_VERSION_CURRENT);
  resp.mutable_conversation()->set_session_id("t");
  resp.mutable_conversation()->set_self_contained_turns(true);
  for (const char* messages : {R"([{"role":"system","content":"S"},{"role":"user","content":"A"}])",
                               R"([{"role":"system","content":"S"},{"role":"user","content":"A"},)"
                               R"({"role":"user","content":"B"}])"}) {
    proto::Turn* turn = resp.mutable_conversation()->add_turns();
    turn->set_raw_messages(messages);
    turn->set_max_tokens(7);
  }
  proto::Credit warm = credit(0, "t", "lane-1", 1, 2, proto::PHASE_WARMUP);
  warm.set_max_tokens_override(1);
  w.credits({warm});
  w.core.on_conversation(resp);
  const std::string marker =
      *endpoints::cache_bust_marker(aiperf::config::CacheBust::kFirstTurnPrefix, "bench-1", "lane-1", "t", true);
  const std::string m = marker.substr(0, 18) + "\\n\\n";
  REQUIRE(w.transport.sent.size() == 1);
  CHECK(w.transport.sent[0].request.body ==
        R"({"messages":[{"role":"system","content":"S"},{"role":"user","content":")" + m +
            R"(A"},{"role":"user","content":"B"}],"model":"m","stream":false,"max_completion_tokens":1})");
  // The same session in profiling: its next turn, the same marker, the turn's own max tokens.
  w.credits({credit(1, "t", "lane-1", 1, 2)});
  REQUIRE(w.transport.sent.size() == 2);
  CHECK(w.transport.sent[1].request.body ==
        R"({"messages":[{"role":"system","content":"S"},{"role":"user","content":")" + m +
            R"(A"},{"role":"user","content":"B"}],"model":"m","stream":false,"max_completion_tokens":7})");
}

TEST_CASE("worker core: a conversation is asked once, and its credits fail after 90 s without it", "[worker_core]") {
  Worker w;
  w.credits({credit(0, "c9", "s0"), credit(1, "c9", "s1", 0, 2)});
  w.timers.advance_to(30 * kS);
  w.credits({credit(2, "c9", "s2")});
  CHECK(w.links.asked == std::vector<std::string>{"c9"});
  w.timers.advance_to(90 * kS - 1);
  CHECK(w.links.credit_messages.empty());
  w.timers.advance_to(90 * kS);
  REQUIRE(w.links.credit_messages.size() == 1);  // sent at once, not at the end of the pass
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 3);
  const std::string message = "the dataset service did not return conversation c9 within 90 s";
  for (uint64_t i = 0; i < 3; ++i) {
    CHECK(returns[i].credit_id() == i);
    CHECK(returns[i].error() == message);
  }
  w.timers.advance_by(WorkerCore::kRawFlushNs);
  auto records = w.links.records();
  REQUIRE(records.size() == 3);
  CHECK(records[2].credit().id() == 2);
  CHECK(records[2].error().type() == "NO_RESPONSE");
  CHECK(records[2].error().message() == message);
  CHECK(records[2].credit_received_perf_ns() == 30 * kS);
  CHECK(w.transport.sent.empty());

  // Answered late: nobody waits for it any more.
  w.answer("c9", {"Hello"});
  CHECK(w.transport.sent.empty());
  // Asked again, answered in time: no timeout fires.
  w.credits({credit(3, "c9", "s3")});
  CHECK(w.links.asked == std::vector<std::string>{"c9", "c9"});
  w.answer("c9", {"Hello"});
  CHECK(w.transport.sent.size() == 1);
  w.timers.advance_by(91 * kS);
  CHECK(w.links.returns().size() == 3);
}

TEST_CASE("worker core: the dataset's error fails the waiting credits at once", "[worker_core]") {
  Worker w;
  w.credits({credit(0, "c5", "s0")});
  proto::ConversationResponse resp;
  resp.mutable_conversation()->set_session_id("c5");
  resp.mutable_error()->set_type("KeyError");
  resp.mutable_error()->set_message("no conversation c5");
  w.core.on_conversation(resp);
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 1);
  CHECK(returns[0].error() == "no conversation c5");
  w.timers.advance_by(91 * kS);
  CHECK(w.links.returns().size() == 1);
  REQUIRE(w.links.records().size() == 1);
  CHECK(w.links.records()[0].error().type() == "KeyError");
}

TEST_CASE("worker core: cancel_after_ns cancels the request that long after it was sent", "[worker_core]") {
  Worker w;
  proto::Credit c = credit(0, "c1", "s0");
  c.set_cancel_after_ns(500 * kMs);
  proto::Credit d = credit(1, "c1", "s1");
  d.set_cancel_after_ns(500 * kMs);
  w.credits({c, d});
  w.answer("c1", {"Hello"});
  REQUIRE(w.transport.sent.size() == 2);
  w.timers.advance_to(1 * kMs);
  w.transport.request_sent(0, w.now());
  w.transport.request_sent(1, w.now());
  w.timers.advance_to(200 * kMs);
  w.respond(1, "fast");  // done before its delay: not cancelled
  w.timers.advance_to(501 * kMs - 1);
  CHECK(w.transport.sent[0].handle->cancels == 0);
  w.timers.advance_to(501 * kMs);
  CHECK(w.transport.sent[0].handle->cancels == 1);
  CHECK(w.transport.sent[1].handle->cancels == 0);
  w.transport.cancelled(0, w.now());
  w.settle();
  auto records = w.links.records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].credit().id() == 1);
  CHECK_FALSE(records[0].was_cancelled());
  CHECK(records[1].credit().id() == 0);
  CHECK(records[1].was_cancelled());
  CHECK(records[1].error().code() == 499);
  CHECK(records[1].error().type() == "RequestCancellationError");
  CHECK(records[1].error().message() == "Request was cancelled after 0.500 seconds");
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 2);
  CHECK(returns[1].credit_id() == 0);
  CHECK(returns[1].cancelled());
  CHECK(returns[1].error() == "Request was cancelled after 0.500 seconds");
}

TEST_CASE("worker core: a scheduled credit waits on a timer, spins the last 150 us, and can be cancelled unsent",
          "[worker_core]") {
  Worker w;
  w.answer("c1", {});
  w.credits({credit(0, "c1", "s0")});
  w.answer("c1", {"Hello"});
  w.respond(0, "ok");
  w.settle();
  const Nanos start = w.now();
  const Nanos wall = w.timers.clock().wall_now();
  proto::Credit early = credit(1, "c1", "s1");
  early.set_intended_send_wall_ns(wall + 2 * kMs);
  proto::Credit cancelled = credit(2, "c1", "s2");
  cancelled.set_intended_send_wall_ns(wall + 2 * kMs);
  w.credits({early, cancelled});
  CHECK(w.transport.sent.size() == 1);
  w.timers.advance_to(start + 2 * kMs - kSendSpinNs - 1);
  CHECK(w.transport.sent.size() == 1);

  w.cancel({2});
  CHECK(w.transport.sent.size() == 1);
  w.links.end_pass();
  auto returns = w.links.returns();
  REQUIRE(returns.size() == 2);
  CHECK(returns[1].credit_id() == 2);
  CHECK(returns[1].cancelled());
  CHECK(returns[1].error() == "Request cancelled by external signal");

  w.timers.advance_to(start + 2 * kMs - kSendSpinNs);  // the timer fires early; the spin does the rest
  REQUIRE(w.transport.sent.size() == 2);
  CHECK(header(w.transport.sent[1].request, "X-Correlation-ID") == "s1");
  CHECK(w.spinner.spins == std::vector<Nanos>{start + 2 * kMs});
  CHECK(w.now() == start + 2 * kMs);
  w.settle();
  auto records = w.links.records();
  REQUIRE(records.size() == 2);
  CHECK(records[1].credit().id() == 2);
  CHECK(records[1].was_cancelled());
  CHECK(records[1].error().code() == 499);

  // CancelCredits for a credit in flight cancels its request.
  w.cancel({1});
  CHECK(w.transport.sent[1].handle->cancels == 1);
}

TEST_CASE("worker core: standby credits start when a session of their phase ends here, oldest first", "[worker_core]") {
  Worker w;
  w.credits({credit(0, "c1", "s0"), standby(credit(5, "c2", "s5")), standby(credit(6, "c3", "s6"))}, 10 * kMs);
  CHECK(w.links.asked == std::vector<std::string>{"c1", "c2", "c3"});  // fetched before their slot frees
  w.answer("c1", {"Hello"});
  w.answer("c2", {"Two"});
  w.answer("c3", {"Three"});
  REQUIRE(w.transport.sent.size() == 1);
  CHECK(w.core.standby() == 2);

  // A warmup session's end does not start a profiling standby.
  w.credits({credit(9, "c1", "w9", 0, 1, proto::PHASE_WARMUP)}, 10 * kMs);
  w.respond(1, "ok");
  CHECK(w.transport.sent.size() == 2);

  w.timers.advance_to(1 * kMs);
  w.respond(0, "ok");
  REQUIRE(w.transport.sent.size() == 3);
  CHECK(header(w.transport.sent[2].request, "X-Correlation-ID") == "s5");
  CHECK(w.transport.sent[2].request.body ==
        R"({"messages":[{"role":"user","content":"Two"}],"model":"m","stream":false})");
  CHECK(w.core.standby() == 1);

  // The last standby withdrawn: it is revoked (a return, no record) and returns stop waiting.
  w.cancel({6}, true);
  REQUIRE(w.links.credit_messages.size() == 1);
  const auto& first = w.links.credit_messages[0].returns();
  REQUIRE(first.returns_size() == 3);
  CHECK(first.returns(0).credit_id() == 9);
  CHECK(first.returns(1).credit_id() == 0);
  CHECK(first.returns(2).credit_id() == 6);
  CHECK(first.returns(2).revoked());
  CHECK(first.started_size() == 1);
  CHECK(first.started(0) == 5);
  w.respond(2, "ok");
  w.links.end_pass();  // no standby left: returns go at the end of the pass
  REQUIRE(w.links.credit_messages.size() == 2);
  CHECK(w.links.credit_messages[1].returns().returns(0).credit_id() == 5);
  w.settle();
  auto records = w.links.records();
  REQUIRE(records.size() == 3);
  CHECK(records[0].credit().id() == 9);
  CHECK(records[1].credit().id() == 0);
  CHECK(records[2].credit().id() == 5);
  CHECK_FALSE(records[2].credit().standby());
  CHECK(records[2].credit().issued_at_wall_ns() == testing::ManualClock::kWallEpoch + 1 * kMs);
}

TEST_CASE("worker core: StartStandby starts the named standby credit without a started notice", "[worker_core]") {
  Worker w;
  w.answer("c1", {});
  w.credits({standby(credit(3, "c1", "s3")), standby(credit(4, "c1", "s4"))});
  w.answer("c1", {"Hello"});
  CHECK(w.transport.sent.empty());
  proto::CreditMessage msg;
  msg.set_version(proto::PROTO_VERSION_CURRENT);
  msg.mutable_start_standby()->add_credit_ids(4);
  w.core.on_credit_message(msg, w.now());
  REQUIRE(w.transport.sent.size() == 1);
  CHECK(header(w.transport.sent[0].request, "X-Correlation-ID") == "s4");
  CHECK(w.core.standby() == 1);
  w.respond(0, "ok");  // its session's end starts the other, with a notice
  REQUIRE(w.transport.sent.size() == 2);
  w.links.end_pass();
  REQUIRE(w.links.credit_messages.size() == 1);
  CHECK(w.links.credit_messages[0].returns().started_size() == 1);
  CHECK(w.links.credit_messages[0].returns().started(0) == 3);
}

TEST_CASE("worker core: prefill concurrency reports each streamed request's first chunk once", "[worker_core]") {
  Worker w;
  w.config.endpoint.streaming = true;
  w.config.loadgen.profiling.prefill_concurrency = 4;
  w.configure();
  w.credits({credit(0, "c1", "s0")});
  w.answer("c1", {"Hello"});
  REQUIRE(w.transport.sent.size() == 1);
  CHECK(header(w.transport.sent[0].request, "Accept") == "text/event-stream");
  auto& on_chunk = w.transport.sent[0].options.on_chunk;
  REQUIRE(on_chunk);
  on_chunk(1, "data: {}\n\n");
  on_chunk(2, "data: {}\n\n");
  REQUIRE(w.links.credit_messages.size() == 1);
  CHECK(w.links.credit_messages[0].first_token().credit_id() == 0);
  CHECK(w.links.credit_messages[0].first_token().phase() == proto::PHASE_PROFILING);
}

TEST_CASE("worker core: url_index picks the URL, the session header carries the session", "[worker_core]") {
  Worker w;
  w.config.endpoint.urls = {"http://127.0.0.1:9", "http://127.0.0.2:9"};
  w.config.endpoint.session_header = "X-Session-ID";
  w.configure();
  proto::Credit second = credit(0, "c1", "s0");
  second.set_url_index(1);
  proto::Credit wraps = credit(1, "c1", "s1");
  wraps.set_url_index(2);
  w.credits({second, wraps, credit(2, "c1", "s2")});
  w.answer("c1", {"Hello"});
  REQUIRE(w.transport.sent.size() == 3);
  CHECK(w.transport.sent[0].request.url == "http://127.0.0.2:9/v1/chat/completions");
  CHECK(w.transport.sent[1].request.url == "http://127.0.0.1:9/v1/chat/completions");
  CHECK(w.transport.sent[2].request.url == "http://127.0.0.1:9/v1/chat/completions");
  CHECK(header(w.transport.sent[0].request, "X-Session-ID") == "s0");
  CHECK(header(w.transport.sent[0].request, "X-Correlation-ID") == "<none>");
  CHECK(header(w.transport.sent[0].request, "Content-Type") == "application/json");
  CHECK(header(w.transport.sent[0].request, "Accept") == "application/json");
}
