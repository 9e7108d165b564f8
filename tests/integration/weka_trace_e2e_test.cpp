// End-to-end: `aiperf profile --input-file <dir> --custom-dataset-type weka_trace` against
// aiperf-mock-server. Checks inputs.json (sessions, the subagent, message roles rebuilt from
// hash_ids, max tokens), that every request the mock received is its turn's whole context (no
// server answers inserted), the recorded idle gaps before each turn as capped by
// --trace-idle-gap-cap-seconds (tolerant bounds: never early, far below the uncapped 59.5 s), and
// the refusals (exit 2, the option named, nothing written).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "process.h"

using aiperf::test::MockServer;
using nlohmann::json;

namespace {

const std::string kDir = std::string(AIPERF_TEST_DATA) + "/datasets/weka_trace";

std::vector<std::string> roles(const json& messages) {
  std::vector<std::string> out;
  for (const auto& m : messages) out.push_back(m["role"]);
  return out;
}

}  // namespace

TEST_CASE("weka_trace replay: sessions, rebuilt contexts on the wire, idle gaps between turns", "[e2e][weka]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const auto run = aiperf::test::run_named(
      tmp, "run",
      {"--url", mock.url(), "--endpoint-type", "chat", "--input-file", kDir, "--custom-dataset-type", "weka-trace",
       "--concurrency", "3", "--conversation-num", "3", "--trace-idle-gap-cap-seconds", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 3);
  std::map<std::string, json> payloads;
  for (const auto& s : inputs["data"]) payloads[s["session_id"]] = s["payloads"];
  REQUIRE(payloads.count("trace_a"));
  REQUIRE(payloads.count("trace_a::sa:agent_001"));
  REQUIRE(payloads.count("trace_b"));
  const json& a = payloads["trace_a"];
  REQUIRE(a.size() == 3);
  CHECK(roles(a[0]["messages"]) == std::vector<std::string>{"system", "user"});
  CHECK(roles(a[1]["messages"]) == std::vector<std::string>{"system", "user", "user"});
  CHECK(roles(a[2]["messages"]) == std::vector<std::string>{"system", "user", "user", "assistant", "user"});
  // The context is re-sent verbatim: the cached prefix and earlier tails read the same on every turn.
  CHECK(a[2]["messages"][0] == a[0]["messages"][0]);
  CHECK(a[1]["messages"][1] == a[0]["messages"][1]);
  CHECK(a[2]["messages"][2] == a[1]["messages"][2]);
  CHECK(a[0]["max_completion_tokens"] == 5);
  CHECK(a[2]["max_completion_tokens"] == 1);
  CHECK(a[0]["model"] == "m");
  CHECK(roles(payloads["trace_a::sa:agent_001"][1]["messages"]) ==
        std::vector<std::string>{"user", "assistant", "user"});
  CHECK(roles(payloads["trace_b"][1]["messages"]) == std::vector<std::string>{"user", "assistant", "user"});
  CHECK(payloads["trace_b"][1]["max_completion_tokens"] == 9);

  // Every body the mock received is one of the turns' whole contexts, as inputs.json has it.
  const auto bodies = aiperf::test::recorded_bodies(rec);
  REQUIRE(bodies.size() == 7);
  std::multiset<std::string> expected, received;
  for (const auto& [_, turns] : payloads)
    for (const auto& p : turns) expected.insert(p["messages"].dump());
  for (const auto& b : bodies) received.insert(b["messages"].dump());
  CHECK(received == expected);

  // Gaps from a turn's answer to the next turn's send: trace_a 1000 ms then 750 ms (the 1.5 s
  // start gap capped to 1 s, minus 0.25 s of api_time), its subagent 300 ms, trace_b 500 ms
  // (60 s capped to 1 s, minus 0.5 s).
  const auto records = run.records();
  REQUIRE(records.size() == 7);
  std::map<std::string, std::map<int, std::pair<double, double>>> times;  // session -> turn -> (start, end) ms
  for (const auto& r : records) {
    const json& m = r["metadata"];
    CHECK_FALSE(r.contains("error"));
    times[m["conversation_id"]][m["turn_index"]] = {m["request_start_ns"].get<double>() / 1e6,
                                                    m["request_end_ns"].get<double>() / 1e6};
  }
  auto gap = [&](const std::string& s, int turn) { return times[s][turn].first - times[s][turn - 1].second; };
  CHECK(gap("trace_a", 1) >= 999.0);
  CHECK(gap("trace_a", 1) < 1900.0);
  CHECK(gap("trace_a", 2) >= 749.0);
  CHECK(gap("trace_a", 2) < 1650.0);
  CHECK(gap("trace_a::sa:agent_001", 1) >= 299.0);
  CHECK(gap("trace_b", 1) >= 499.0);
  CHECK(gap("trace_b", 1) < 1400.0);
}

TEST_CASE("weka_trace refusals: exclusive delay flags, context filter, dataset filter", "[e2e][weka]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const std::vector<Case> cases{
      {{"--input-file", kDir, "--ignore-trace-delays", "--use-think-time-only"},
       "--ignore-trace-delays and --use-think-time-only are mutually exclusive"},
      {{"--input-file", kDir, "--max-context-length", "48"},
       "No eligible traces in weka_trace after filter-then-cap (scanned 2, --max-context-length=48"},
      {{"--max-context-length", "100"}, "--max-context-length only applies to Weka trace replay"},
      {{"--input-file", kDir, "--custom-dataset-type", "mooncake_trace", "--max-context-length", "100"},
       "--max-context-length only applies to Weka trace replay"},
      {{"--input-file", kDir, "--dataset-filter", "a=b"}, "--dataset-filter requires --public-dataset"},
      {{"--public-dataset", "sharegpt", "--dataset-filter", "a=b"},
       "Public dataset 'sharegpt' does not support --dataset-filter"},
      {{"--public-dataset", "sharegpt", "--dataset-filter", "a"},
       "Invalid --dataset-filter 'a'; expected non-empty key=value"},
      {{"--input-file", kDir + "/a.json", "--custom-dataset-type", "weka_trace", "--max-context-length", "0"},
       "--max-context-length"},
  };
  int n = 0;
  for (const auto& c : cases) {
    const std::string name = "bad" + std::to_string(n++);
    std::vector<std::string> args{"--url", "http://127.0.0.1:9", "--endpoint-type", "chat"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const auto run = aiperf::test::run_named(tmp, name, args);
    INFO(name << ": " << run.out << run.err);
    CHECK(run.exit_code == 2);
    CHECK(run.err.find(c.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(run.dir));
  }
}
