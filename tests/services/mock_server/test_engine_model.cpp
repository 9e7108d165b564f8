// The engine model (--engine-slots) with a fake clock: exact token times, queueing, batching,
// refusals and cancellation; and its command-line options.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "cli_options.h"
#include "engine_model.h"
#include "engine_options.h"

using namespace aiperf::mock;

namespace {

constexpr int64_t ms = 1'000'000;  // ns

// 1000 prompt tokens/s (a 50-token prompt prefills in 50 ms), steps of 10 + 5 x n ms.
EngineSpec spec(unsigned slots) {
  EngineSpec s;
  s.slots = slots;
  s.prefill_tokens_per_s = 1000;
  s.step_ms = 10;
  s.step_per_seq_ms = 5;
  return s;
}

// Runs the model until idle, adding each sequence's token times to `times`.
using TokenTimes = std::map<uint64_t, std::vector<int64_t>>;
TokenTimes run_to_idle(EngineModel& model, TokenTimes times = {}) {
  while (auto next = model.next_event_ns())
    for (const EngineEvent& e : model.advance(*next)) {
      times[e.id].push_back(e.time_ns);
      CHECK(static_cast<int>(times[e.id].size()) == e.tokens);
    }
  return times;
}

MockConfig parse(std::vector<std::string> args) {
  CLI::App app;
  MockConfig config;
  add_mock_options(app, config);
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector back to front
  app.parse(args);
  return config;
}

}  // namespace

TEST_CASE("engine: 2 slots, 4 requests at once: the 3rd and 4th start when the first two complete") {
  EngineModel model(spec(2));
  std::vector<uint64_t> ids;
  for (int i = 0; i < 4; ++i) ids.push_back(*model.submit(0, 50, 3));
  CHECK(model.counts().running == 2);
  CHECK(model.counts().waiting == 2);
  CHECK(model.advance(0).empty());
  REQUIRE(model.next_event_ns() == 50 * ms);  // prefill 50 tokens / 1000 per s

  const auto times = run_to_idle(model);
  // First token at the end of prefill; then steps of 10 + 5 x 2 = 20 ms for the pair.
  const std::vector<int64_t> first_pair = {50 * ms, 70 * ms, 90 * ms};
  CHECK(times.at(ids[0]) == first_pair);
  CHECK(times.at(ids[1]) == first_pair);
  // Admitted at 90 ms (the pair's completion), first token after their own 50 ms prefill.
  const std::vector<int64_t> second_pair = {140 * ms, 160 * ms, 180 * ms};
  CHECK(times.at(ids[2]) == second_pair);
  CHECK(times.at(ids[3]) == second_pair);
  CHECK(model.counts().running == 0);
  CHECK(model.counts().waiting == 0);
}

TEST_CASE("engine: the first token's event tells the queue wait and the prefill time") {
  EngineModel model(spec(2));
  for (int i = 0; i < 4; ++i) model.submit(0, 50, 3);
  std::vector<EngineEvent> firsts;
  while (auto next = model.next_event_ns())
    for (const EngineEvent& e : model.advance(*next))
      if (e.tokens == 1) firsts.push_back(e);
      else CHECK(e.queued_ns + e.prefill_ns == 0);
  REQUIRE(firsts.size() == 4);
  for (int i = 0; i < 4; ++i) {
    CHECK(firsts[i].queued_ns == (i < 2 ? 0 : 90 * ms));
    CHECK(firsts[i].prefill_ns == 50 * ms);
  }
}

TEST_CASE("engine: the counts follow the queue draining") {
  EngineModel model(spec(2));
  for (int i = 0; i < 4; ++i) model.submit(0, 50, 3);
  model.advance(89 * ms);
  CHECK(model.counts().running == 2);
  CHECK(model.counts().waiting == 2);
  model.advance(90 * ms);
  CHECK(model.counts().running == 2);
  CHECK(model.counts().waiting == 0);
  model.advance(180 * ms);
  CHECK(model.counts().running == 0);
}

TEST_CASE("engine: a decode step lasts base + per-sequence x batch size, so ITL grows with the batch") {
  for (int n : {1, 2, 3}) {
    EngineModel model(spec(8));
    for (int i = 0; i < n; ++i) model.submit(0, 0, 4);  // no prompt: first token at once
    const auto times = run_to_idle(model);
    REQUIRE(times.size() == static_cast<size_t>(n));
    const int64_t step = (10 + 5 * n) * ms;
    for (const auto& [id, t] : times) CHECK(t == std::vector<int64_t>{0, step, 2 * step, 3 * step});
  }
  CHECK(EngineModel(spec(8)).step_ns(4) == 30 * ms);
  CHECK(EngineModel(spec(8)).prefill_ns(1500) == 1500 * ms);
}

TEST_CASE("engine: a sequence whose prefill ends mid-step joins the next step, which is then longer") {
  EngineModel model(spec(4));
  const uint64_t a = *model.submit(0, 0, 4);
  const auto at_zero = model.advance(0);  // a's first token at 0; its first step (n=1) runs 0..15 ms
  REQUIRE(at_zero.size() == 1);
  CHECK(at_zero[0].time_ns == 0);
  const uint64_t b = *model.submit(5 * ms, 0, 3);
  const auto times = run_to_idle(model, {{a, {0}}});
  // Steps: 0-15 (a alone), then 15-35 and 35-55 with both (20 ms each); both finish at 55.
  CHECK(times.at(a) == std::vector<int64_t>{0, 15 * ms, 35 * ms, 55 * ms});
  CHECK(times.at(b) == std::vector<int64_t>{5 * ms, 35 * ms, 55 * ms});
}

TEST_CASE("engine: a one-token request leaves its slot at the end of its prefill") {
  EngineModel model(spec(1));
  const uint64_t a = *model.submit(0, 20, 1);
  const uint64_t b = *model.submit(0, 20, 1);
  const auto events = model.advance(40 * ms);
  REQUIRE(events.size() == 2);
  CHECK(events[0].id == a);
  CHECK(events[0].time_ns == 20 * ms);
  CHECK(events[0].finished);
  CHECK(events[1].id == b);
  CHECK(events[1].time_ns == 40 * ms);
  CHECK(events[1].finished);
  CHECK_FALSE(model.next_event_ns());
}

TEST_CASE("engine: a full queue refuses and max-queue 0 refuses whenever every slot is busy") {
  EngineSpec bounded = spec(1);
  bounded.max_queue = 1;
  EngineModel model(bounded);
  CHECK(model.submit(0, 10, 2));
  CHECK(model.submit(0, 10, 2));
  CHECK_FALSE(model.submit(0, 10, 2));
  CHECK(model.counts().waiting == 1);
  // At 25 ms the first completed (10 ms prefill + one 15 ms step) and the second took the slot.
  model.advance(25 * ms);
  CHECK(model.counts().waiting == 0);
  CHECK(model.submit(25 * ms, 10, 2));

  bounded.max_queue = 0;
  EngineModel no_queue(bounded);
  CHECK(no_queue.submit(0, 10, 2));
  CHECK_FALSE(no_queue.submit(1, 10, 2));
}

TEST_CASE("engine: cancelling frees the slot at once for the oldest waiting request") {
  EngineModel model(spec(1));
  const uint64_t a = *model.submit(0, 50, 10);
  const uint64_t b = *model.submit(0, 50, 10);
  const uint64_t c = *model.submit(0, 50, 2);
  model.cancel(0, b);  // waiting: just leaves the queue
  CHECK(model.counts().waiting == 1);
  model.advance(60 * ms);  // a: first token at 50, in the step 50..65
  model.cancel(60 * ms, a);
  CHECK(model.counts().running == 1);  // c took the slot at 60
  const auto times = run_to_idle(model);
  // a gets nothing more (the step it was in ends at 65 without it); c prefills 60..110.
  CHECK(times.count(a) == 0);
  CHECK(times.at(c) == std::vector<int64_t>{110 * ms, 125 * ms});
  model.cancel(200 * ms, c);  // finished: ignored
  CHECK(model.counts().running == 0);
}

TEST_CASE("engine: a closed loop of 8 clients on 4 slots runs in waves at the predicted ceiling") {
  // k = 20 output tokens, prefill f = 10 ms, step(4) = 10 + 2 x 4 = 18 ms: a wave lasts
  // T = f + (k - 1) x step(4) = 352 ms and yields 4 x 20 tokens.
  EngineSpec s;
  s.slots = 4;
  s.prefill_tokens_per_s = 10000;
  s.step_ms = 10;
  s.step_per_seq_ms = 2;
  EngineModel model(s);
  int sent = 0, finished = 0;
  std::map<uint64_t, int64_t> submitted;
  std::vector<int64_t> ttft;
  const auto send = [&](int64_t t) {
    submitted[*model.submit(t, 100, 20)] = t;
    ++sent;
  };
  for (int i = 0; i < 8; ++i) send(0);
  int64_t last = 0;
  while (auto next = model.next_event_ns())
    for (const EngineEvent& e : model.advance(*next)) {
      if (e.tokens == 1) ttft.push_back(e.time_ns - submitted.at(e.id));
      if (!e.finished) continue;
      ++finished;
      last = e.time_ns;
      if (sent < 32) send(e.time_ns);
    }
  CHECK(finished == 32);
  CHECK(last == 8 * 352 * ms);  // 32 requests = 8 waves
  // The first wave waits for nothing; every later request waits one wave in the queue.
  REQUIRE(ttft.size() == 32);
  for (size_t i = 0; i < ttft.size(); ++i) CHECK(ttft[i] == (i < 4 ? 10 * ms : 362 * ms));
}

TEST_CASE("engine options: parsed, off by default, and refused with --fast or several processes") {
  const MockConfig off = parse({});
  CHECK_FALSE(off.engine.enabled());
  CHECK(check_engine_options(off).empty());

  const MockConfig on = parse({"--engine-slots", "4", "--engine-max-queue", "0", "--engine-prefill-tokens-per-s",
                               "5000", "--engine-step-ms", "8", "--engine-step-per-seq-ms", "1.5"});
  CHECK(on.engine.slots == 4);
  CHECK(on.engine.max_queue == 0u);
  CHECK(on.engine.prefill_tokens_per_s == 5000);
  CHECK(on.engine.step_ms == 8);
  CHECK(on.engine.step_per_seq_ms == 1.5);
  CHECK(check_engine_options(on).empty());
  CHECK_FALSE(parse({"--engine-slots", "4"}).engine.max_queue);

  CHECK(check_engine_options(parse({"--engine-slots", "4", "--fast"})) ==
        "--engine-slots cannot be combined with --fast: the engine model sets the latencies");
  CHECK(check_engine_options(parse({"--engine-slots", "4", "--processes", "2"})).rfind(
            "--engine-slots cannot be combined with --processes 2", 0) == 0);
  CHECK_THROWS_AS(parse({"--engine-max-queue", "3"}), CLI::RequiresError);
  CHECK_THROWS_AS(parse({"--engine-slots", "4", "--engine-prefill-tokens-per-s", "0"}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"--engine-slots", "4", "--engine-step-ms", "-1"}), CLI::ValidationError);
}
