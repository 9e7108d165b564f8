// RecordsCore's --failed-request-threshold (the grace floor max(concurrency, 10), the strict
// ratio, one request per run, profiling records only) and where the network RTT it subtracts
// comes from (--network-latency-mean / -automatic).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "fakes/manual_timers.h"
#include "records_core.h"

using namespace aiperf;
using records::RecordsCore;

namespace {

struct Sink : records::ResultsSink {
  std::vector<proto::ProfileResults> published;
  std::vector<std::string> cancels;
  void results(const proto::ProfileResults& r) override { published.push_back(r); }
  void cancel_run(const std::string& reason) override { cancels.push_back(reason); }
};

proto::MetricRecord record(bool error, proto::Phase phase = proto::PHASE_PROFILING) {
  proto::MetricRecord rec;
  rec.set_version(proto::PROTO_VERSION_CURRENT);
  rec.mutable_metadata()->set_phase(phase);
  rec.mutable_metadata()->set_request_start_ns(1'000'000'000);
  rec.mutable_metadata()->set_request_end_ns(1'050'000'000);
  if (error) {
    rec.mutable_error()->set_type("HTTP 500");
  } else {
    auto* latency = rec.add_metrics();  // 50 ms
    latency->set_tag("request_latency");
    latency->set_value(50'000'000);
  }
  return rec;
}

struct Fixture {
  testing::ManualTimers timers;
  Sink sink;
  config::RunConfig config;
  std::unique_ptr<RecordsCore> core;
  explicit Fixture(std::optional<double> threshold, std::optional<uint32_t> concurrency = std::nullopt) {
    config.endpoint.type = "chat";
    config.loadgen.failed_request_threshold = threshold;
    config.loadgen.profiling.concurrency = concurrency;
    core = std::make_unique<RecordsCore>(config, timers, sink, nullptr);
  }
  void add(int ok, int errors) {
    for (int i = 0; i < ok; ++i) core->add(record(false));
    for (int i = 0; i < errors; ++i) core->add(record(true));
    core->batch_done();
  }
};

proto::PhaseEvent complete(uint64_t completed) {
  proto::PhaseEvent ev;
  ev.set_kind(proto::PHASE_EVENT_COMPLETE);
  ev.set_phase(proto::PHASE_PROFILING);
  ev.set_completed(completed);
  return ev;
}

const proto::MetricResult* find(const proto::ProfileResults& res, const std::string& tag) {
  for (const auto& m : res.records())
    if (m.tag() == tag) return &m;
  return nullptr;
}

}  // namespace

TEST_CASE("failed-request threshold: armed after 10 records, fires once past the ratio") {
  Fixture f(0.2);
  f.add(0, 9);  // 9 of 9 failed, but fewer than the grace floor of 10
  CHECK(f.sink.cancels.empty());
  f.add(0, 1);  // 10/10 > 0.2
  REQUIRE(f.sink.cancels.size() == 1);
  CHECK(f.sink.cancels[0] ==
        "--failed-request-threshold exceeded: 10/10 = 1.000 > 0.200 (grace floor 10): run cancelled");
  f.add(0, 5);
  CHECK(f.sink.cancels.size() == 1);  // asked once
}

TEST_CASE("failed-request threshold: a ratio equal to the threshold does not fire") {
  Fixture f(0.5);
  f.add(5, 5);  // 5/10 = 0.5, not above
  CHECK(f.sink.cancels.empty());
  f.add(0, 1);  // 6/11 = 0.545
  REQUIRE(f.sink.cancels.size() == 1);
  CHECK(f.sink.cancels[0].find("6/11 = 0.545 > 0.500") != std::string::npos);
}

TEST_CASE("failed-request threshold: the grace floor is the concurrency when larger") {
  Fixture f(0.0, 16);
  f.add(14, 1);
  CHECK(f.sink.cancels.empty());  // 15 records < 16
  f.add(1, 0);                    // 1/16 > 0
  REQUIRE(f.sink.cancels.size() == 1);
  CHECK(f.sink.cancels[0].find("1/16 = 0.062 > 0.000 (grace floor 16)") != std::string::npos);
}

TEST_CASE("failed-request threshold: warmup records and an unset threshold never fire") {
  Fixture warm(0.1);
  for (int i = 0; i < 20; ++i) warm.core->add(record(true, proto::PHASE_WARMUP));
  warm.core->batch_done();
  CHECK(warm.sink.cancels.empty());
  Fixture off(std::nullopt);
  off.add(0, 50);
  CHECK(off.sink.cancels.empty());
}

TEST_CASE("network latency: a fixed mean is subtracted; automatic asks its source once") {
  Fixture fixed(std::nullopt);
  fixed.config.network_latency.enabled = true;
  fixed.config.network_latency.mean_ms = 20;
  fixed.core = std::make_unique<RecordsCore>(fixed.config, fixed.timers, fixed.sink, nullptr);
  fixed.add(2, 0);
  fixed.core->on_phase_event(complete(2));
  REQUIRE(fixed.sink.published.size() == 1);
  const auto* rtt = find(fixed.sink.published[0], "network_rtt");
  REQUIRE(rtt);
  CHECK(rtt->avg() == 20.0);
  CHECK(find(fixed.sink.published[0], "network_adjusted_request_latency")->avg() == 30.0);  // 50 - 20

  Fixture automatic(std::nullopt);
  automatic.config.network_latency.enabled = true;
  automatic.core = std::make_unique<RecordsCore>(automatic.config, automatic.timers, automatic.sink, nullptr);
  int asked = 0;
  automatic.core->set_network_rtt_source([&] {
    ++asked;
    return std::optional<double>(5'000'000);
  });
  automatic.add(1, 0);
  automatic.core->on_phase_event(complete(1));
  CHECK(asked == 1);
  REQUIRE(automatic.sink.published.size() == 1);
  CHECK(find(automatic.sink.published[0], "network_rtt")->avg() == 5.0);
  CHECK(find(automatic.sink.published[0], "network_adjusted_request_latency")->avg() == 45.0);

  Fixture none(std::nullopt);
  none.config.network_latency.enabled = true;
  none.core = std::make_unique<RecordsCore>(none.config, none.timers, none.sink, nullptr);
  none.core->set_network_rtt_source([] { return std::optional<double>(); });  // no probe succeeded
  none.add(1, 0);
  none.core->on_phase_event(complete(1));
  REQUIRE(none.sink.published.size() == 1);
  CHECK_FALSE(find(none.sink.published[0], "network_rtt"));
}
