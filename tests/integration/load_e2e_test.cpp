// End-to-end load modes: the real binaries, checking request counts, phases and schedules.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {


using Run = aiperf::test::ProfileRun;

Run profile(std::vector<std::string> args) {
  const std::string tmp = aiperf::test::make_temp_dir();
  std::vector<std::string> full{"--tokenizer", "gpt2", "--model", "m", "--isl", "20"};
  full.insert(full.end(), args.begin(), args.end());
  return aiperf::test::run_profile(tmp + "/artifacts", full, tmp);
}

}  // namespace

TEST_CASE("request rate (poisson) sends the request count with intended send times", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--request-rate", "200", "--request-count", "100", "--random-seed", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == 100);
  for (const auto& r : recs) {
    const auto& m = r["metadata"];
    REQUIRE(m.contains("intended_start_ns"));
    // A request never starts before its intended time.
    CHECK(m["request_start_ns"].get<int64_t>() >= m["intended_start_ns"].get<int64_t>());
  }
}

TEST_CASE("constant and gamma arrival patterns run and concurrency caps the rate", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run constant = profile({"--url", mock.url(), "--request-rate", "100", "--arrival-pattern", "constant",
                          "--request-count", "30"});
  REQUIRE(constant.exit_code == 0);
  CHECK(constant.records().size() == 30);
  Run gamma = profile({"--url", mock.url(), "--request-rate", "100", "--arrival-smoothness", "2", "--request-count",
                       "30", "--concurrency", "2"});
  REQUIRE(gamma.exit_code == 0);
  CHECK(gamma.records().size() == 30);
}

TEST_CASE("warmup requests are sent first and excluded from every output", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--concurrency", "2", "--request-count", "10", "--warmup-request-count", "5"});
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == 10);
  std::set<uint64_t> ids;
  for (const auto& r : recs) {
    CHECK(r["metadata"]["benchmark_phase"] == "profiling");
    ids.insert(r["metadata"]["session_num"].get<uint64_t>());
  }
  CHECK(*ids.rbegin() == 9);  // profiling credit ids restart at 0
  CHECK(run.summary()["request_count"]["avg"] == 10);
}

TEST_CASE("duration runs send until the deadline and count every returned credit", "[e2e][load]") {
  MockServer mock({"--ttft", "5", "--itl", "1"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--streaming", "--concurrency", "4", "--benchmark-duration", "1.5",
                     "--osl", "5", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto recs = run.records();
  CHECK(recs.size() > 20);  // ~10 ms per request, 4 at a time, 1.5 s
  CHECK(run.summary()["request_count"]["avg"].get<size_t>() + run.summary().value("error_request_count", json{{"avg", 0}})["avg"].get<size_t>() == recs.size());
}

TEST_CASE("request cancellation rate 100 cancels every request after the delay with 499 records", "[e2e][load]") {
  MockServer mock({"--ttft", "5000"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--streaming", "--concurrency", "2", "--request-count", "6",
                     "--request-cancellation-rate", "100", "--request-cancellation-delay", "0.2"});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);  // nothing succeeded
  auto recs = run.records();
  REQUIRE(recs.size() == 6);
  for (const auto& r : recs) {
    CHECK(r["error"]["code"] == 499);
    CHECK(r["error"]["type"] == "RequestCancellationError");
    CHECK(r["error"]["message"] == "Request was cancelled after 0.200 seconds");
    CHECK(r["metadata"]["was_cancelled"] == true);
  }
}

TEST_CASE("prefill concurrency 1 lets only one request wait for its first token at a time", "[e2e][load]") {
  MockServer mock({"--ttft", "30", "--itl", "30"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--streaming", "--concurrency", "4", "--prefill-concurrency", "1",
                     "--request-count", "8", "--osl", "4", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == 8);
  // Order requests by start; each starts only after the previous one's first chunk arrived,
  // so starts are at least ~TTFT apart (the mock never answers earlier than 30 ms).
  std::vector<int64_t> starts;
  for (const auto& r : recs) starts.push_back(r["metadata"]["request_start_ns"]);
  std::sort(starts.begin(), starts.end());
  for (size_t i = 1; i < starts.size(); ++i) CHECK(starts[i] - starts[i - 1] >= 29'000'000);
}

TEST_CASE("invalid load option combinations are refused with the option named", "[e2e][load]") {
  Run a = profile({"--request-rate", "10", "--arrival-pattern", "concurrency_burst"});
  CHECK(a.exit_code == 2);
  CHECK(a.err.find("--arrival-pattern") != std::string::npos);
  Run b = profile({"--prefill-concurrency", "2"});
  CHECK(b.exit_code == 2);
  CHECK(b.err.find("--prefill-concurrency requires --streaming") != std::string::npos);
  Run c = profile({"--arrival-smoothness", "2", "--arrival-pattern", "poisson", "--request-rate", "5"});
  CHECK(c.exit_code == 2);
  CHECK(c.err.find("--arrival-smoothness") != std::string::npos);
  Run d = profile({"--request-cancellation-delay", "1"});
  CHECK(d.exit_code == 2);
  CHECK(d.err.find("--request-cancellation-rate") != std::string::npos);
}

TEST_CASE("fixed schedule replays a trace at its timestamps, each entry once", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string trace = tmp + "/trace.jsonl";
  const std::vector<int> stamps{1000, 1000, 1040, 1100, 1250, 1260, 1500, 1800};
  {
    std::ofstream out(trace);
    for (int ts : stamps) out << R"({"timestamp": )" << ts << R"(, "input_length": 30, "output_length": 3})" << "\n";
  }
  Run run = profile({"--url", mock.url(), "--input-file", trace, "--custom-dataset-type", "mooncake_trace",
                     "--fixed-schedule", "--fixed-schedule-auto-offset", "--extra-inputs", "ignore_eos:true"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == stamps.size());
  std::vector<int64_t> intended;
  for (const auto& r : recs) {
    intended.push_back(r["metadata"]["intended_start_ns"]);
    CHECK(r["metadata"]["request_start_ns"].get<int64_t>() >= r["metadata"]["intended_start_ns"].get<int64_t>());
    CHECK(r["metrics"]["input_sequence_length"]["value"] == 30);
  }
  std::sort(intended.begin(), intended.end());
  for (size_t i = 0; i < stamps.size(); ++i) {
    CHECK(intended[i] - intended[0] == int64_t(stamps[i] - stamps[0]) * 1'000'000);  // exact schedule
  }
}

TEST_CASE("a concurrency ramp starts with one session and reaches the target", "[e2e][load]") {
  MockServer mock({"--ttft", "20"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--concurrency", "4", "--concurrency-ramp-duration", "3",
                     "--request-count", "40", "--osl", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == 40);
  // Before the first step (1 s after the phase starts) only one request is in flight at a time.
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const auto& r : recs) spans.emplace_back(r["metadata"]["request_start_ns"], r["metadata"]["request_end_ns"]);
  std::sort(spans.begin(), spans.end());
  const int64_t t0 = spans.front().first;
  for (size_t i = 1; i < spans.size() && spans[i].first - t0 < 500'000'000; ++i)
    CHECK(spans[i].first >= spans[i - 1].second);
}

TEST_CASE("user-centric rate paces each user's turns by num_users/rate", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  // 4 users at 20 requests/s: each user sends a turn every 0.2 s.
  Run run = profile({"--url", mock.url(), "--user-centric-rate", "20", "--num-users", "4", "--session-turns-mean", "3",
                     "--request-count", "30", "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  auto recs = run.records();
  REQUIRE(recs.size() == 30);
  // user -> turn -> (intended start, actual start). A turn's actual start may lag its intended
  // one; the next turn is scheduled from the intended time, so that is what the gap is measured from.
  std::map<std::string, std::map<int, std::pair<int64_t, int64_t>>> starts;
  for (const auto& r : recs) {
    const auto& m = r["metadata"];
    const std::string user = m["x_correlation_id"];
    CHECK(std::all_of(user.begin(), user.end(), ::isdigit));  // users are numbered
    starts[user][m["turn_index"].get<int>()] = {m.value("intended_start_ns", int64_t{0}),
                                                m["request_start_ns"].get<int64_t>()};
  }
  size_t gaps = 0;
  for (const auto& [user, turns] : starts) {
    for (auto it = std::next(turns.begin()); it != turns.end(); ++it) {
      const auto& prev = *std::prev(it);
      if (it->first != prev.first + 1 || prev.second.first == 0) continue;
      CHECK(it->second.second - prev.second.first >= 199'000'000);
      ++gaps;
    }
  }
  CHECK(gaps > 0);

  Run missing = profile({"--user-centric-rate", "5", "--session-turns-mean", "3"});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--user-centric-rate requires --num-users") != std::string::npos);
  Run single = profile({"--user-centric-rate", "5", "--num-users", "2"});
  CHECK(single.exit_code == 2);
  CHECK(single.err.find("--session-turns-mean >= 2") != std::string::npos);
  Run both = profile({"--user-centric-rate", "5", "--num-users", "2", "--request-rate", "3", "--session-turns-mean", "3"});
  CHECK(both.exit_code == 2);
  CHECK(both.err.find("--request-rate") != std::string::npos);
}

TEST_CASE("request rate with multi-turn sessions sends every turn including later ones on an arrival", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--request-rate", "200", "--request-count", "20", "--session-turns-mean", "2",
                     "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto recs = run.records();
  REQUIRE(recs.size() == 20);
  std::set<int64_t> intended;
  size_t later_turns = 0;
  for (const auto& r : recs) {
    const auto& m = r["metadata"];
    REQUIRE(m.contains("intended_start_ns"));  // AIPerf §3.5: one credit per arrival, continuations first
    intended.insert(m["intended_start_ns"].get<int64_t>());
    later_turns += m["turn_index"].get<int>() > 0;
  }
  CHECK(intended.size() == 20);  // twenty distinct arrivals
  CHECK(later_turns >= 5);
}

TEST_CASE("a rate run with a duration issues no arrival intended after the deadline", "[e2e][load]") {
  MockServer mock({"--fast"}, aiperf::test::make_temp_dir());
  Run run = profile({"--url", mock.url(), "--request-rate", "1000", "--benchmark-duration", "1", "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // start_time is the profiling phase start, local time with microseconds.
  const std::string start = run.summary()["start_time"];
  std::tm tm{};
  REQUIRE(strptime(start.c_str(), "%Y-%m-%dT%H:%M:%S", &tm));
  tm.tm_isdst = -1;
  const int64_t start_ns = int64_t(std::mktime(&tm)) * 1'000'000'000 + std::stoll(start.substr(20)) * 1000;
  const auto recs = run.records();
  CHECK(recs.size() > 800);  // Poisson, 1000/s for 1 s
  int64_t last_intended = 0;
  for (const auto& r : recs) last_intended = std::max(last_intended, r["metadata"]["intended_start_ns"].get<int64_t>());
  CHECK(last_intended > start_ns + 900'000'000);
  CHECK(last_intended < start_ns + 1'000'000'000 + 1'000);  // start_time is rounded to the microsecond
}
