// turn-messages payload (cli/analyze_turn_messages.h) on hand-made raw records: replays kept
// apart, roots first, messages interned once, bodies capped in characters, limits applied.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "analyze_turn_messages.h"

using namespace aiperf::cli::analyze;
using oj = nlohmann::ordered_json;
namespace fs = std::filesystem;

namespace {

std::string line(const std::string& conv, const std::string& corr, int turn, int64_t start, const std::string& messages,
                 const std::string& extra_md = "") {
  return "{\"metadata\": {\"conversation_id\": \"" + conv + "\", \"x_correlation_id\": \"" + corr +
         "\", \"turn_index\": " + std::to_string(turn) + ", \"request_start_ns\": " + std::to_string(start) +
         ", \"benchmark_phase\": \"profiling\"" + extra_md + "}, \"payload\": {\"model\": \"m\", \"max_tokens\": 7, " +
         "\"messages\": " + messages + "}}\n";
}

fs::path temp_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("aiperf-turns-" + std::to_string(getpid())) / name;
  fs::create_directories(dir);
  return dir;
}

}  // namespace

TEST_CASE("turn-messages finds shards, then the single raw file", "[analyze][turn-messages]") {
  const fs::path dir = temp_dir("find");
  CHECK(find_raw_records(dir.string()).empty());
  std::ofstream(dir / "profile_export_raw.jsonl") << "\n";
  CHECK(find_raw_records(dir.string()) == std::vector<std::string>{(dir / "profile_export_raw.jsonl").string()});
  fs::create_directories(dir / "raw_records");
  std::ofstream(dir / "raw_records" / "b.jsonl") << "\n";
  std::ofstream(dir / "raw_records" / "a.jsonl") << "\n";
  std::ofstream(dir / "raw_records" / "notes.txt") << "\n";
  CHECK(find_raw_records(dir.string()) ==
        std::vector<std::string>{(dir / "raw_records" / "a.jsonl").string(), (dir / "raw_records" / "b.jsonl").string()});
  CHECK(find_raw_records((dir / "profile_export_raw.jsonl").string()).size() == 1);
}

TEST_CASE("turn-messages payload: replays, order, interning, caps", "[analyze][turn-messages]") {
  const fs::path dir = temp_dir("payload");
  const std::string sys = "{\"role\": \"system\", \"content\": \"be brief\"}";
  const std::string u1 = "{\"role\": \"user\", \"content\": \"h\xC3\xA9llo world\"}";  // 11 characters
  const std::string a1 = "{\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\": \"t\"}]}";
  std::ofstream(dir / "raw.jsonl")
      // conversation c1 replayed by two sessions (s1 first, s2 later), and a subagent of s1
      << line("c1", "s2", 0, 500, "[" + sys + "]") << line("c1", "s1", 1, 200, "[" + sys + "," + u1 + "," + a1 + "]")
      << line("c1", "s1", 0, 100, "[" + sys + "," + u1 + "]")
      << line("c1::sa:x", "k1", 0, 50, "[" + u1 + "]", ", \"agent_depth\": 1, \"parent_correlation_id\": \"s1\"")
      << "{not json\n\n[1, 2]\n";
  std::vector<std::string> skipped;
  std::vector<TurnRecord> records = load_turn_records({(dir / "raw.jsonl").string()}, skipped);
  REQUIRE(records.size() == 4);
  CHECK(skipped == std::vector<std::string>{(dir / "raw.jsonl").string() + ":5: invalid JSON, skipped",
                                            (dir / "raw.jsonl").string() + ":7: not a JSON object, skipped"});
  const oj p = build_turn_payload(records, 1, {5, 40, 60});
  CHECK(p["stat"] == "3 conversations (3 shown) \xC2\xB7 4 turns \xC2\xB7 7 message refs (3 unique) \xC2\xB7 from 1 raw shard(s)");
  CHECK(p["legend"] == oj::parse(R"([["system", 3], ["user", 3], ["assistant", 1]])"));
  // Bodies are cut to 5 characters (not bytes); a structured message is its JSON without the role.
  CHECK(p["msgs"][0] == oj::parse(R"({"role": "system", "len": 8, "body": "be br", "trunc": 3})"));
  CHECK(p["msgs"][1] == oj::parse("{\"role\": \"user\", \"len\": 11, \"body\": \"h\xC3\xA9llo\", \"trunc\": 6}"));
  CHECK(p["msgs"][2]["len"] == std::string("{\"content\":null,\"tool_calls\":[{\"id\":\"t\"}]}").size());
  REQUIRE(p["convs"].size() == 3);
  // Roots first (s1's replay started at 100, s2's at 500), the subagent last.
  CHECK(p["convs"][0]["id"] == "c1");
  CHECK(p["convs"][0]["replayTag"] == "");
  CHECK(p["convs"][0]["lane"] == "s1");
  CHECK(p["convs"][0]["turns"][0]["ids"] == oj::parse("[0, 1]"));  // turn 0 first (sorted by turn_index)
  CHECK(p["convs"][0]["turns"][1]["ids"] == oj::parse("[0, 1, 2]"));
  CHECK(p["convs"][0]["turns"][1]["maxTokens"] == 7);
  CHECK(p["convs"][1]["replayTag"] == "replay 2");
  CHECK(p["convs"][1]["lane"] == "s2");
  CHECK(p["convs"][2]["kind"] == "subagent (depth 1)");
  CHECK(p["convs"][2]["isRoot"] == false);
  CHECK(p["convs"][2]["parent"] == "c1\xE2\x80\xA6");
  CHECK(p["convs"][2]["disp"] == "c1\xE2\x80\xA6::sa:x");

  const oj limited = build_turn_payload(records, 1, {8000, 1, 1});
  REQUIRE(limited["convs"].size() == 1);
  CHECK(limited["convs"][0]["nt"] == 2);
  CHECK(limited["convs"][0]["moreTurns"] == 1);
  CHECK(limited["convs"][0]["turns"].size() == 1);
  CHECK(limited["stat"].get<std::string>().rfind("3 conversations (1 shown)", 0) == 0);

  const std::string html = turn_messages_html(p, "run</script>");
  CHECK(html.find("<title>run&lt;/script&gt; \xE2\x80\x94 turn messages</title>") != std::string::npos);
  CHECK(html.find("://") == std::string::npos);  // no URL: nothing fetched from anywhere
}
