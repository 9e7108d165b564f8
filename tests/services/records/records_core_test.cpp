// RecordsCore's rules on a fake clock: when the results go out, what happens to the records of
// a credit whose worker or record processor died, the drain deadline, finalize without a phase
// end, and how profile_export.jsonl's lines leave the core.
#include "records_core.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fakes/manual_timers.h"
#include "jsonl_file.h"

using namespace aiperf;
using records::RecordsCore;

namespace {
constexpr Nanos kMs = 1'000'000;
constexpr Nanos kS = 1'000'000'000;
constexpr Nanos kPhaseStartWall = 5'000 * kS;
constexpr Nanos kPhaseEndWall = 5'010 * kS;

struct Sink : records::ResultsSink {
  std::vector<proto::ProfileResults> published;
  void results(const proto::ProfileResults& r) override { published.push_back(r); }
};

struct Log : records::LineLog {
  std::vector<std::string>* appends;
  explicit Log(std::vector<std::string>* a) : appends(a) {}
  void append(std::string_view lines) override { appends->emplace_back(lines); }
};

proto::MetricRecord record(proto::Phase phase, const char* error_type = nullptr) {
  proto::MetricRecord rec;
  rec.set_version(proto::PROTO_VERSION_CURRENT);
  auto* md = rec.mutable_metadata();
  md->set_phase(phase);
  md->set_request_start_ns(kPhaseStartWall + kS);
  md->set_request_end_ns(kPhaseStartWall + 2 * kS);
  if (error_type) rec.mutable_error()->set_type(error_type);
  return rec;
}

proto::PhaseEvent phase_event(proto::PhaseEventKind kind, uint64_t completed, uint64_t lost = 0) {
  proto::PhaseEvent ev;
  ev.set_kind(kind);
  ev.set_phase(proto::PHASE_PROFILING);
  ev.set_completed(completed);
  ev.set_lost(lost);
  ev.set_start_wall_ns(kPhaseStartWall);
  ev.set_end_wall_ns(kPhaseEndWall);
  return ev;
}

proto::ServiceLost lost(const std::string& type, const std::string& id) {
  proto::ServiceLost l;
  l.set_service_type(type);
  l.set_service_id(id);
  l.set_reason(id + " exited (signal 9)");
  return l;
}

// Count of error records of `type` in the results' error summary.
uint64_t errors_of(const proto::ProfileResults& r, const std::string& type) {
  uint64_t n = 0;
  for (const auto& e : r.error_summary())
    if (e.error_details().type() == type) n += e.count();
  return n;
}

size_t lines_in(const std::vector<std::string>& appends) {
  size_t n = 0;
  for (const auto& a : appends) {
    CHECK(!a.empty());
    CHECK(a.back() == '\n');  // whole lines only
    for (char c : a) n += c == '\n';
  }
  return n;
}

struct Fixture {
  testing::ManualTimers timers;
  Sink sink;
  std::vector<std::string> appends;
  config::RunConfig config;
  std::unique_ptr<RecordsCore> core;
  Fixture() {
    config.endpoint.type = "chat";
    core = std::make_unique<RecordsCore>(config, timers, sink, std::make_unique<Log>(&appends));
    core->on_phase_event(phase_event(proto::PHASE_EVENT_START, 0));
  }
  void batch(int ok, int errors = 0) {
    for (int i = 0; i < ok; ++i) core->add(record(proto::PHASE_PROFILING));
    for (int i = 0; i < errors; ++i) core->add(record(proto::PHASE_PROFILING, "HTTP 500"));
    core->batch_done();
  }
};
}  // namespace

TEST_CASE("results go out once every counted credit has its record, whichever comes first") {
  Fixture f;
  f.core->add(record(proto::PHASE_WARMUP));  // not counted, not written
  f.batch(2, 1);
  CHECK(f.sink.published.empty());  // the phase has not ended: more may come
  f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 5));
  CHECK(f.sink.published.empty());  // 3 of 5
  f.batch(2);
  REQUIRE(f.sink.published.size() == 1);
  const auto& r = f.sink.published[0];
  CHECK(r.completed() == 5);
  CHECK(r.total_expected() == 5);
  CHECK(errors_of(r, "HTTP 500") == 1);
  CHECK(r.start_ns() == kPhaseStartWall);
  CHECK(r.end_ns() == kPhaseEndWall);
  CHECK_FALSE(r.was_cancelled());
  CHECK(f.appends.size() == 2);  // one append per batch
  CHECK(lines_in(f.appends) == 5);
  CHECK(f.timers.pending() == 0);  // the drain deadline was cancelled

  f.batch(1);  // a late record changes nothing
  CHECK(f.core->received() == 5);
  CHECK(f.sink.published.size() == 1);
}

TEST_CASE("a dead record processor's records become RecordProcessorLost after 1 s without records") {
  Fixture f;
  f.batch(3);
  f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 8));
  f.core->on_service_lost(lost("record_processor", "record_processor_1"));
  f.timers.advance_by(900 * kMs);
  f.batch(1);  // the survivors still drain: the quiet second starts again
  f.timers.advance_by(900 * kMs);
  CHECK(f.sink.published.empty());
  f.timers.advance_by(400 * kMs);
  REQUIRE(f.sink.published.size() == 1);
  const auto& r = f.sink.published[0];
  CHECK(r.completed() == 8);
  CHECK(errors_of(r, "RecordProcessorLost") == 4);
  CHECK(lines_in(f.appends) == 8);
  CHECK(f.appends.back().find("record_processor_1 exited (signal 9)") != std::string::npos);
}

TEST_CASE("the kind of loss names who died") {
  SECTION("one worker: WorkerLost") {
    Fixture f;
    f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 2));
    f.core->on_service_lost(lost("worker", "worker_7"));
    f.timers.advance_by(2 * kS);
    REQUIRE(f.sink.published.size() == 1);
    CHECK(errors_of(f.sink.published[0], "WorkerLost") == 2);
    CHECK(f.appends.back().find("worker_7") != std::string::npos);
  }
  SECTION("a worker and a record processor: ServiceLost") {
    Fixture f;
    f.core->on_service_lost(lost("worker", "worker_7"));
    f.core->on_service_lost(lost("record_processor", "record_processor_0"));
    f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 3));
    f.timers.advance_by(2 * kS);
    REQUIRE(f.sink.published.size() == 1);
    CHECK(errors_of(f.sink.published[0], "ServiceLost") == 3);
  }
  SECTION("the timing service counted a lost worker the bus did not announce") {
    Fixture f;
    f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 2, /*lost=*/1));
    f.timers.advance_by(2 * kS);
    REQUIRE(f.sink.published.size() == 1);
    CHECK(errors_of(f.sink.published[0], "WorkerLost") == 2);
  }
}

TEST_CASE("other services held no records: only the drain deadline ends the wait, as RecordLost") {
  Fixture f;
  f.batch(1);
  f.core->on_service_lost(lost("telemetry", "telemetry_0"));
  f.core->on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 3));
  f.timers.advance_by(RecordsCore::kDrainNs - kMs);
  CHECK(f.sink.published.empty());
  f.timers.advance_by(kMs);
  REQUIRE(f.sink.published.size() == 1);
  CHECK(errors_of(f.sink.published[0], "RecordLost") == 2);
  CHECK(f.sink.published[0].completed() == 3);
}

TEST_CASE("finalize publishes what arrived, even before the phase ended") {
  Fixture f;
  f.timers.advance_to(3 * kS);
  f.batch(2, 1);
  f.core->finalize();
  REQUIRE(f.sink.published.size() == 1);
  const auto& r = f.sink.published[0];
  CHECK(r.completed() == 3);
  CHECK(r.total_expected() == 3);
  CHECK(r.was_cancelled());
  CHECK(r.start_ns() == kPhaseStartWall);
  CHECK(r.end_ns() == testing::ManualClock::kWallEpoch + 3 * kS);
  f.core->finalize();  // once only
  CHECK(f.sink.published.size() == 1);
}

TEST_CASE("without a log (export level summary) nothing is written, results are the same") {
  testing::ManualTimers timers;
  Sink sink;
  config::RunConfig config;
  RecordsCore core(config, timers, sink, nullptr);
  core.add(record(proto::PHASE_PROFILING));
  core.batch_done();
  core.on_phase_event(phase_event(proto::PHASE_EVENT_COMPLETE, 1));
  REQUIRE(sink.published.size() == 1);
  CHECK(sink.published[0].completed() == 1);
}

TEST_CASE("an endpoint type it cannot measure is refused") {
  testing::ManualTimers timers;
  Sink sink;
  config::RunConfig config;
  config.endpoint.type = "no-such-endpoint";
  CHECK_THROWS_WITH(RecordsCore(config, timers, sink, nullptr), "unknown endpoint type no-such-endpoint");
}

TEST_CASE("JsonlFile: batches of whole lines in order; a failing disk stops the file, not the run") {
  const auto path = std::filesystem::temp_directory_path() / ("records_core_test_" + std::to_string(::getpid()));
  {
    records::JsonlFile file(path.string());
    file.append("{\"a\":1}\n");
    file.append("{\"b\":2}\n{\"c\":3}\n");
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n");
  std::filesystem::remove(path);

  records::JsonlFile full("/dev/full");  // every write fails with ENOSPC
  CHECK_NOTHROW(full.append("{\"a\":1}\n"));
  CHECK_NOTHROW(full.append("{\"b\":2}\n"));  // closed after the failure: ignored

  CHECK_THROWS_WITH(records::JsonlFile("/nonexistent-dir/profile_export.jsonl"),
                    Catch::Contains("cannot open /nonexistent-dir/profile_export.jsonl"));
}
