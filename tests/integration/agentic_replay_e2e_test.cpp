// End-to-end: `aiperf profile --scenario inferencex-agentx-mvp --unsafe-override` on a tiny
// weka_trace (tests/data/datasets/weka_agentic) against aiperf-mock-server. Checks what was sent
// and when: the warmup primes each lane's turn before t*, profiling resumes each lane at its
// offset after t* with the same session (its cache-bust marker), later turns wait their recorded
// gaps, finished lanes recycle into fresh sessions; --burst-phase-starts and the global idle cap;
// the scenario's verdict in profile_export_aiperf.json; and the lock's refusals (exit 2, nothing
// written). AIPerf 0.13 sent the same schedule for the same run (tests/compat/scenarios.py,
// scenario agentic_replay).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kTraces = std::string(AIPERF_TEST_DATA) + "/datasets/weka_agentic";
using Run = aiperf::test::ProfileRun;

struct Rec {
  std::string conv, session;
  int turn = 0;
  double start_ms = 0, end_ms = 0, intended_ms = 0;
};

// Profiling records by send time (ms from the first one's start).
std::vector<Rec> records(const Run& run) {
  std::vector<Rec> out;
  for (const auto& r : run.records()) {
    const json& m = r["metadata"];
    const double start = m["request_start_ns"].get<double>() / 1e6;
    const double intended = m.contains("intended_start_ns") && m["intended_start_ns"].is_number()
                                ? m["intended_start_ns"].get<double>() / 1e6
                                : 0;
    out.push_back({m["conversation_id"], m["x_correlation_id"], m["turn_index"], start,
                   m["request_end_ns"].get<double>() / 1e6, intended});
  }
  std::sort(out.begin(), out.end(), [](const Rec& a, const Rec& b) { return a.start_ms < b.start_ms; });
  return out;
}

std::string marker(const json& body) {
  std::smatch m;
  const std::string text = body.dump();
  return std::regex_search(text, m, std::regex(R"(\[rid:[0-9a-f]{12}\])")) ? m.str() : "";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> scenario_args(const std::string& url) {
  return {"--url",
          url,
          "--endpoint-type",
          "chat",
          "--input-file",
          kTraces,
          "--custom-dataset-type",
          "weka_trace",
          "--scenario",
          "inferencex-agentx-mvp",
          "--unsafe-override",
          "--concurrency",
          "2",
          "--random-seed",
          "1",
          "--trajectory-start-min-ratio",
          "0.5",
          "--trajectory-start-max-ratio",
          "0.5"};
}

}  // namespace

TEST_CASE("agentic replay: warmup primes each lane, profiling resumes at t*, lanes recycle", "[e2e][agentic]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  auto args = scenario_args(mock.url());
  args.insert(args.end(), {"--benchmark-duration", "3"});
  Run run = aiperf::test::run_named(tmp, "run", args);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  // t* = 1.5 s in trace_p (calls at 0, 1, 2, 3 s), 2 s in trace_q (0, 4 s). Profiling: p turn 2 at
  // 0.5 s, q turn 1 at 2 s; p turn 3 0.9 s after turn 2's answer, then p's lane recycles into a
  // fresh trace_p session (turn 0, turn 1 0.9 s later), q's lane into a fresh trace_q one (its
  // turn 1, 3.9 s later, and p's next turn fall past the 3 s).
  const auto r = records(run);
  for (const Rec& x : r)
    UNSCOPED_INFO(x.conv << " " << x.turn << " " << x.session.substr(0, 8) << " start " << x.start_ms - r[0].start_ms
                         << " end " << x.end_ms - r[0].start_ms << " intended " << x.intended_ms - r[0].intended_ms);
  REQUIRE(r.size() == 6);
  const std::vector<std::pair<std::string, int>> order{{"trace_p", 2}, {"trace_p", 3}, {"trace_p", 0},
                                                       {"trace_q", 1}, {"trace_q", 0}, {"trace_p", 1}};
  for (size_t i = 0; i < order.size(); ++i) {
    CHECK(r[i].conv == order[i].first);
    CHECK(r[i].turn == order[i].second);
  }
  CHECK(r[3].intended_ms - r[0].intended_ms == Approx(1500).margin(1));  // both lanes from one origin
  // The recorded 0.9 s waits after the answers: never sooner, later only by the host's load.
  CHECK(r[1].start_ms - r[0].end_ms >= 899);
  CHECK(r[1].start_ms - r[0].end_ms < 1300);
  CHECK(r[5].start_ms - r[2].end_ms >= 899);
  CHECK(r[5].start_ms - r[2].end_ms < 1300);
  CHECK(r[1].session == r[0].session);
  CHECK(r[2].session != r[0].session);  // recycled: a new session
  CHECK(r[5].session == r[2].session);
  CHECK(r[4].session != r[3].session);

  // The mock saw the two warmup requests first: trace_q's turn 0 (at once: 2 s before its t*),
  // then trace_p's turn 1 (1.5 s later: 0.5 s before its t*), each with its lane's marker.
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 8);
  for (const auto& b : bodies) {
    CHECK(b["ignore_eos"] == true);  // the scenario's auto-fills
    CHECK(b["stream"] == true);
    CHECK_FALSE(marker(b).empty());
  }
  CHECK(marker(bodies[1]) == marker(bodies[2]));  // warmup p turn 1, profiling p turn 2: one session
  CHECK(marker(bodies[2]) == marker(bodies[3]));
  CHECK(marker(bodies[4]) != marker(bodies[2]));  // the recycled session's own
  CHECK(marker(bodies[0]) == marker(bodies[5]));  // q: warmup turn 0, profiling turn 1
  CHECK(bodies[1]["messages"].dump().size() < bodies[2]["messages"].dump().size());
  for (size_t i = 0; i < bodies.size(); ++i)  // warmup primes with one token; profiling asks the trace's 2
    CHECK(bodies[i]["max_completion_tokens"] == (i < 2 ? 1 : 2));

  const json summary = run.summary();
  CHECK(summary["metadata"] == json::parse(R"({"scenario": "inferencex-agentx-mvp", "submission_valid": false,
                        "submission_invalid_reasons": ["unsafe_override"]})"));
  CHECK(summary["request_count"]["avg"] == 6);
  const std::string log = read_file(run.dir + "/logs/aiperf.log");
  CHECK(log.find("Agentic replay: 2 trajectory lanes, 2 warmup request(s)") != std::string::npos);
  CHECK(log.find("Global system-idle cap summary: limit=10s, jumps=0") != std::string::npos);
}

TEST_CASE("agentic replay: burst phase starts, and the idle cap pulls pending turns in", "[e2e][agentic]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  auto args = scenario_args(mock.url());
  args.insert(args.end(),
              {"--benchmark-duration", "1.5", "--burst-phase-starts", "--system-idle-gap-cap-seconds", "0.3"});
  Run run = aiperf::test::run_named(tmp, "run", args);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto r = records(run);
  REQUIRE(r.size() >= 3);
  // Both lanes at the phase start; with nothing in flight, p's turn 3 comes 0.3 s after the
  // system went idle instead of its recorded 0.9 s.
  auto find = [&](const char* conv, int turn) {
    return std::find_if(r.begin(), r.end(), [&](const Rec& x) { return x.conv == conv && x.turn == turn; });
  };
  const auto p2 = find("trace_p", 2), p3 = find("trace_p", 3), q1 = find("trace_q", 1);
  REQUIRE(p2 != r.end());
  REQUIRE(p3 != r.end());
  REQUIRE(q1 != r.end());
  CHECK(p2->intended_ms == Approx(q1->intended_ms).margin(1));
  CHECK(p3->start_ms - p2->end_ms < 700);
  CHECK(p3->start_ms - p2->end_ms >= 290);
  const json summary = run.summary();
  CHECK(summary["metadata"]["submission_valid"] == false);
  const std::string log = read_file(run.dir + "/logs/aiperf.log");
  // The profiling phase's summary (the last): the cap moved the pending timers at least once.
  const size_t last = log.rfind("Global system-idle cap summary: limit=0.3s, jumps=");
  REQUIRE(last != std::string::npos);
  CHECK(log.compare(last, 56, "Global system-idle cap summary: limit=0.3s, jumps=0, ski") != 0);
}

TEST_CASE("agentic replay: a context-overflow answer ends the lane's session and the run is marked invalid",
          "[e2e][agentic]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  // The mock refuses prompts + max tokens above 30 of its tokens with vLLM's 400: trace_p's call 2
  // is over, its calls 0 and 1 and trace_q's are not.
  MockServer mock({"--fast", "--max-context", "30"}, tmp);
  auto args = scenario_args(mock.url());
  args.insert(args.end(), {"--benchmark-duration", "3"});
  Run run = aiperf::test::run_named(tmp, "run", args);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto r = records(run);
  REQUIRE(r.size() >= 3);
  // p's call 2 fails; its session ends there (no call 3 ever), and the lane starts trace_p at
  // call 0 at once, as a new session.
  CHECK(r[0].conv == "trace_p");
  CHECK(r[0].turn == 2);
  CHECK(r[1].conv == "trace_p");
  CHECK(r[1].turn == 0);
  CHECK(r[1].session != r[0].session);
  CHECK(r[1].start_ms - r[0].end_ms < 100);
  for (const Rec& x : r) CHECK_FALSE((x.conv == "trace_p" && x.turn == 3));
  size_t overflows = 0;
  for (const auto& rec : run.records())
    if (rec.contains("error")) {
      CHECK(rec["error"]["message"].get<std::string>().find("maximum context length is 30 tokens") !=
            std::string::npos);
      ++overflows;
    }
  CHECK(overflows >= 1);
  CHECK(run.summary()["metadata"] == json::parse(R"({"scenario": "inferencex-agentx-mvp", "submission_valid": false,
                        "submission_invalid_reasons": ["unsafe_override", "context_overflow_rate_exceeded"]})"));
  const std::string log = read_file(run.dir + "/logs/aiperf.log");
  CHECK(log.find("session(s) ended early by a context-overflow answer") != std::string::npos);
}

TEST_CASE("agentic replay: the scenario lock's refusals exit 2 and write nothing", "[e2e][agentic]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--scenario", "bogus"}, "Error: --scenario: Unknown scenario 'bogus'. Valid scenarios: inferencex-agentx-mvp"},
      {{"--scenario", "inferencex-agentx-mvp", "--unsafe-override"},
       "got synthetic (CLI default when --public-dataset / --input-file is omitted). --unsafe-override cannot "
       "bypass a missing weka loader)\nThese violations cannot be bypassed with --unsafe-override."},
      {{"--scenario", "inferencex-agentx-mvp", "--input-file", kTraces, "--custom-dataset-type", "weka_trace",
        "--benchmark-duration", "5"},
       "Error: --scenario: Scenario invariants violated (2 conflicts):\n  - --custom-dataset-type / --input-file: "
       "got 'weka_trace (local, unpinned)'"},
      {{"--scenario", "inferencex-agentx-mvp", "--input-file", kTraces, "--custom-dataset-type", "weka_trace",
        "--request-rate", "2", "--cache-bust", "system-prefix", "--extra-inputs", "ignore_eos:false"},
       "  - --request-rate / --user-centric-rate / --fixed-schedule: got 'poisson', required 'agentic_replay' "
       "(scenario 'inferencex-agentx-mvp' requires timing_mode=agentic_replay; do not pass --request-rate / "
       "--arrival-pattern / --user-centric-rate / --fixed-schedule (or declare a rate-shaped phase) alongside "
       "--scenario)\n  - extra_inputs.ignore_eos: got False, required True (scenario 'inferencex-agentx-mvp' "
       "requires ignore_eos=true)"},
      {{"--scenario", "inferencex-agentx-mvp", "--input-file", kTraces, "--custom-dataset-type", "weka_trace",
        "--concurrency", "1,2"},
       "Error: --scenario: scenario 'inferencex-agentx-mvp' does not support parameter sweeps; a scenario locks one "
       "fixed configuration"},
      {{"--agentic-cache-warmup-duration", "5"},
       "Error: --agentic-cache-warmup-duration requires the agentic_replay timing mode (set today by --scenario "
       "inferencex-agentx-mvp); the profiling phase(s) are not agentic_replay."},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string name = "bad" + std::to_string(i++);
    std::vector<std::string> args{"--url", "http://127.0.0.1:1", "--endpoint-type", "chat"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    Run run = aiperf::test::run_named(tmp, name, args);
    INFO(run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK((run.out + run.err).find(c.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(run.dir));
  }
}
