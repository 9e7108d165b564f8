// End-to-end: the analysis commands as a user runs them. `analyze-trace` and `validate` on
// trace files; `analyze swim-lane` on the run directory of a real `aiperf profile` against the
// mock; `analyze turn-messages` on a --export-level raw run. Checks what they print, the files
// they write and the exit codes for bad input.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "process.h"

using aiperf::test::Process;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

Result aiperf_cmd(const std::string& tmp, const std::vector<std::string>& args, const std::string& name = "cmd") {
  Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", args, tmp, name);
  const auto rc = p.wait(120);
  REQUIRE(rc.has_value());
  return {*rc, p.out(), p.err()};
}

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

const char* kTrace =
    "{\"timestamp\": 0, \"input_length\": 1000, \"output_length\": 10, \"hash_ids\": [1, 2]}\n"
    "{\"timestamp\": 10, \"input_length\": 1500, \"output_length\": 20, \"hash_ids\": [1, 2, 3]}\n"
    "{\"timestamp\": 20, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [4, 5]}\n"
    "{\"timestamp\": 30, \"text_input\": \"hello\", \"output_length\": 7}\n"
    "{\"timestamp\": 40, \"input_length\": 512, \"output_length\": 3, \"hash_ids\": [1]}\n";

}  // namespace

TEST_CASE("analyze-trace prints the statistics and writes the JSON report", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string trace = write(tmp + "/trace.jsonl", kTrace);
  const std::string report = tmp + "/out/sub/report.json";
  const Result r = aiperf_cmd(tmp, {"analyze-trace", trace, "--block-size", "512", "--output-file", report});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("Total requests:   5\nUnique prefixes:  5\nPrefix groups:    1\n") != std::string::npos);
  CHECK(r.out.find("│        Context Length │ 507.20 │  452.65 │ 0.00 │   0.00 │ 512.00 │ 1,000.00 │ 1,024.00 │") !=
        std::string::npos);
  CHECK(r.out.find("Analysis report saved to " + report + "\n") != std::string::npos);
  const json j = json::parse(read_file(report));
  CHECK(j["cache_hit_rate"] == 0.41666666666666663);
  CHECK(j["prefix_reuse_ratio"] == 0.625);
  CHECK(j["context_length_stats"]["max"] == 1024.0);
  // A smaller block: the shared blocks count fewer context tokens.
  const Result small = aiperf_cmd(tmp, {"analyze-trace", "--input-file", trace, "--block-size", "100",
                                        "--output-file", tmp + "/small.json"});
  REQUIRE(small.exit_code == 0);
  CHECK(json::parse(read_file(tmp + "/small.json"))["context_length_stats"]["mean"] == 342.4);  // (1000+200+0+0+512)/5
}

TEST_CASE("analyze-trace rejects bad input with exit 2 and writes nothing", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string report = tmp + "/report.json";
  const Result missing = aiperf_cmd(tmp, {"analyze-trace", tmp + "/nope.jsonl", "--output-file", report});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("--input-file: input file not found: " + tmp + "/nope.jsonl") != std::string::npos);
  const std::string bad = write(tmp + "/bad.jsonl", "{\"input_length\": 5}\n\n{\"input_length\": 5, \"hash_ids\": 3}\n");
  const Result malformed = aiperf_cmd(tmp, {"analyze-trace", bad, "--output-file", report});
  CHECK(malformed.exit_code == 2);
  CHECK(malformed.err.find(bad + ":3: field 'hash_ids': must be a list of integers, got 3") != std::string::npos);
  const Result block = aiperf_cmd(tmp, {"analyze-trace", bad, "--block-size", "0"});
  CHECK(block.exit_code == 2);
  CHECK(block.err.find("--block-size") != std::string::npos);
  CHECK_FALSE(fs::exists(report));
}

TEST_CASE("validate mooncake-trace passes a good trace and lists a bad one's lines", "[e2e][validate]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const Result ok = aiperf_cmd(tmp, {"validate", "mooncake-trace", "--input", write(tmp + "/t.jsonl", kTrace)});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "Validation passed: 5 rows are Mooncake-compatible.\n");
  const std::string bad = write(tmp + "/bad.jsonl", "{\"input_length\": 5}\n{\"text_input\": \"x\", \"hash_ids\": [1]}\n{}\n");
  const Result failed = aiperf_cmd(tmp, {"validate", "--target", "mooncake-trace", "--input", bad});
  CHECK(failed.exit_code == 1);
  CHECK(failed.out ==
        "Validation failed with 2 error(s):\n"
        "  Line 2: field 'hash_ids': only allowed with 'input_length'\n"
        "  Line 3: exactly one of 'input_length', 'text_input' or 'messages' is required\n");
  const Result missing = aiperf_cmd(tmp, {"validate", "mooncake-trace", "--input", tmp + "/nope.jsonl"});
  CHECK(missing.exit_code == 1);
  CHECK(missing.out == "Validation failed: " + tmp + "/nope.jsonl is not a file.\n");
  const Result target = aiperf_cmd(tmp, {"validate", "sharegpt", "--input", bad});
  CHECK(target.exit_code == 2);
  CHECK(target.err.find("--target") != std::string::npos);
}

namespace {

// A short multi-turn run against the mock: 6 sessions of 3 turns at concurrency 3.
aiperf::test::ProfileRun multi_turn_run(const std::string& tmp, aiperf::test::MockServer& mock, const std::string& name) {
  return aiperf::test::run_profile(
      tmp + "/" + name,
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat", "--url", mock.url(),
       "--streaming", "--concurrency", "3", "--conversation-num", "6", "--conversation-turn-mean", "3",
       "--conversation-turn-delay-mean", "20", "--output-tokens-mean", "4", "--random-seed", "1"},
      tmp, name);
}

bool is_png(const std::string& path) { return read_file(path).rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

}  // namespace

TEST_CASE("analyze swim-lane draws a real run's PNG and HTML", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::MockServer mock({"--fast"}, tmp);
  const auto run = multi_turn_run(tmp, mock, "run");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE(run.records().size() == 18);

  const Result r = aiperf_cmd(tmp, {"analyze", "swim-lane", run.dir, "-c", "3", "--html"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "saved " + run.dir + "/swim_lane.png\nsaved " + run.dir + "/swim_lane.html\n");
  CHECK(is_png(run.dir + "/swim_lane.png"));
  const std::string html = read_file(run.dir + "/swim_lane.html");
  const size_t open = html.find("id=\"aiperf-payload\">");
  REQUIRE(open != std::string::npos);
  const size_t from = open + std::string("id=\"aiperf-payload\">").size();
  const json payload = json::parse(html.substr(from, html.find("</script>", from) - from));
  CHECK(payload["run"] == fs::path(run.dir).filename().string());
  CHECK(payload["nSlots"] == 3);  // concurrency 3: three lanes reused by the six sessions
  CHECK(payload["target"] == 3);
  CHECK(payload["sessions"].size() == 6);
  size_t turns = 0;
  for (const json& s : payload["sessions"]) turns += s["turns"].size();
  CHECK(turns == 18);
  CHECK(payload["peakActive"].get<int>() <= 3);
  CHECK(payload["benchEnd"] == run.summary()["benchmark_duration"]["avg"]);
  // --out: the PNG there, the page beside it with an .html suffix; nothing in the run dir.
  fs::remove(run.dir + "/swim_lane.png");
  const Result out = aiperf_cmd(tmp, {"analyze", "swim-lane", "--run-dirs", run.dir, "-o", tmp + "/o/lanes.png",
                                      "--html", "--ramp", "0.5"});
  REQUIRE(out.exit_code == 0);
  CHECK(is_png(tmp + "/o/lanes.png"));
  CHECK(read_file(tmp + "/o/lanes.html").find("\"rampS\":0.5") != std::string::npos);
  CHECK_FALSE(fs::exists(run.dir + "/swim_lane.png"));
}

TEST_CASE("analyze swim-lane skips unusable run dirs with exit 1 and rejects bad options with 2", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  fs::create_directories(tmp + "/empty");
  fs::create_directories(tmp + "/broken");
  write(tmp + "/broken/profile_export.jsonl",
        "{\"metadata\": {\"conversation_id\": \"c\", \"request_start_ns\": 1, \"request_end_ns\": 2}}\n{\"meta\n");
  const Result r = aiperf_cmd(tmp, {"analyze", "swim-lane", tmp + "/empty", tmp + "/broken"});
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("skip " + tmp + "/empty: " + tmp + "/empty/profile_export.jsonl not found\n") != std::string::npos);
  CHECK(r.err.find("skip " + tmp + "/broken: " + tmp + "/broken/profile_export.jsonl:2: invalid JSON") !=
        std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/broken/swim_lane.png"));
  const Result two = aiperf_cmd(tmp, {"analyze", "swim-lane", tmp + "/empty", tmp + "/broken", "-o", tmp + "/x.png"});
  CHECK(two.exit_code == 2);
  CHECK(two.err == "error: --out only valid with a single run dir\n");
  const Result none = aiperf_cmd(tmp, {"analyze", "swim-lane"});
  CHECK(none.exit_code == 2);
  CHECK(none.err == "error: at least one run directory is required\n");
  const Result ramp = aiperf_cmd(tmp, {"analyze", "swim-lane", tmp + "/broken", "--ramp", "-1"});
  CHECK(ramp.exit_code == 2);
  CHECK(ramp.err.find("--ramp") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/x.png"));
}

TEST_CASE("analyze turn-messages renders a raw-export run's conversations", "[e2e][analyze]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  aiperf::test::MockServer mock({"--fast"}, tmp);
  const auto run = aiperf::test::run_profile(
      tmp + "/raw",
      {"--tokenizer", "gpt2", "--ui-type", "none", "--model", "m", "--endpoint-type", "chat", "--url", mock.url(),
       "--concurrency", "2", "--conversation-num", "3", "--conversation-turn-mean", "2", "--output-tokens-mean", "4",
       "--random-seed", "1", "--export-level", "raw"},
      tmp, "raw");
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  const Result r = aiperf_cmd(tmp, {"analyze", "turn-messages", run.dir, "-n", "2", "--max-turns", "1"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string page = run.dir + "/turn_messages.html";
  CHECK(r.out.rfind("saved " + page + " (", 0) == 0);
  const std::string html = read_file(page);
  const std::string tag = "id=\"aiperf-turns\">";
  const size_t from = html.find(tag) + tag.size();
  REQUIRE(from > tag.size());
  const json p = json::parse(html.substr(from, html.find("</script>", from) - from));
  // 3 conversations of 2 turns; each turn re-sends the history (user, assistant, user).
  CHECK(p["stat"].get<std::string>().rfind("3 conversations (2 shown) \xC2\xB7 6 turns \xC2\xB7 12 message refs", 0) == 0);
  REQUIRE(p["convs"].size() == 2);
  CHECK(p["convs"][0]["nt"] == 2);
  CHECK(p["convs"][0]["moreTurns"] == 1);
  CHECK(p["convs"][0]["models"] == "m");
  CHECK(p["legend"][0] == json::array({"user", 9}));
  CHECK(html.find("://") == std::string::npos);  // offline
  // The page's own script builds the tree under its Content-Security-Policy: a headless
  // browser's DOM holds one <details class="conv"> per conversation shown.
  const std::string chromium = "/usr/bin/chromium-headless-shell";
  if (fs::exists(chromium)) {
    Process browser(chromium, {"--no-sandbox", "--disable-gpu", "--dump-dom", "file://" + page}, tmp, "chromium");
    REQUIRE(browser.wait(120).has_value());
    const std::string dom = browser.out();
    size_t convs = 0;
    for (size_t at = dom.find("<details class=\"conv\">"); at != std::string::npos;
         at = dom.find("<details class=\"conv\">", at + 1))
      ++convs;
    CHECK(convs == 2);
    CHECK(dom.find("<p id=\"stat\">3 conversations (2 shown)") != std::string::npos);
  } else {
    WARN("chromium-headless-shell not installed: the page's script was not run");
  }

  // A run without raw records is skipped (exit 1); --out with two runs is refused (exit 2).
  fs::create_directories(tmp + "/plain");
  const Result none = aiperf_cmd(tmp, {"analyze", "turn-messages", tmp + "/plain"});
  CHECK(none.exit_code == 1);
  CHECK(none.err == "skip " + tmp + "/plain: no raw records under " + tmp +
                        "/plain; run aiperf with --export-level raw first\n");
  CHECK_FALSE(fs::exists(tmp + "/plain/turn_messages.html"));
  const Result two = aiperf_cmd(tmp, {"analyze", "turn-messages", run.dir, tmp + "/plain", "-o", tmp + "/x.html"});
  CHECK(two.exit_code == 2);
  CHECK(two.err == "error: --out only valid with a single run dir\n");
  CHECK_FALSE(fs::exists(tmp + "/x.html"));
}
