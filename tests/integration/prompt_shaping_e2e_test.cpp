// End-to-end: the prompt shaping options of AIPerf 0.13 (issue 16) against aiperf-mock-server:
// --system-prompt(-file), --random-range-ratio with --prompt-corpus random (the ISLs and OSLs
// NumPy draws for the seed, as the reference), --prompt-corpus coding, --cache-bust markers on
// the wire (and not in inputs.json), --image-source directories, and the refusals (exit 2,
// named, nothing written).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "process.h"
#include "run_checks.h"

using aiperf::test::MockServer;
using aiperf::test::Process;
using nlohmann::json;

namespace {

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  return aiperf::test::run_named(tmp, name, args);
}

std::vector<json> requests(const std::string& file) { return aiperf::test::recorded_bodies(file); }

using aiperf::test::base64_decode;
using aiperf::test::expect_no_errors;

const std::regex kRidPrefix(R"(^\[rid:[0-9a-f]{12}\]\n\n)");
const std::regex kRidSuffix(R"(\n\n\[rid:[0-9a-f]{12}\]$)");

std::string first_content(const json& body) { return body["messages"][0]["content"].get<std::string>(); }

}  // namespace

TEST_CASE("prompt shaping: --system-prompt and --system-prompt-file lead every chat request and inputs.json",
          "[e2e][prompt_shaping]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--system-prompt", "You are terse.", "--prompt-corpus", "coding",
                                 "--isl", "30", "--num-dataset-entries", "3", "--request-count", "3",
                                 "--random-seed", "4"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 3);
  for (const auto& b : bodies) {
    REQUIRE(b["messages"].size() == 2);
    CHECK(b["messages"][0] == json{{"role", "system"}, {"content", "You are terse."}});
    CHECK(b["messages"][1]["role"] == "user");
  }
  const json inputs = run.inputs();
  CHECK(inputs["data"][1]["payloads"][0]["messages"][0]["content"] == "You are terse.");
  // The coding corpus: code punctuation our prose corpus never has.
  std::string users;
  for (const auto& b : bodies) users += b["messages"][1]["content"].get<std::string>();
  CHECK(users.find_first_of("(){}[]=_/\"") != std::string::npos);
  // The system prompt is additive: the user prompts keep --isl (counted on the whole request).
  for (const auto& r : run.records()) CHECK(r["metrics"]["input_sequence_length"]["value"].get<int>() > 30);
  expect_no_errors(run, 3);

  // The file form, with its text as written (newlines kept).
  const std::string file = tmp + "/system.txt";
  std::ofstream(file) << "Line one.\nLine two.\n";
  const std::string rec2 = tmp + "/requests2.jsonl";
  MockServer mock2({"--fast", "--record-requests", rec2}, aiperf::test::make_temp_dir());  // its own log
  Run run2 = profile(tmp, "run2", {"--url", mock2.url(), "--system-prompt-file", file, "--isl", "8",
                                   "--request-count", "2", "--num-dataset-entries", "2"});
  INFO(run2.out << run2.err);
  REQUIRE(run2.exit_code == 0);
  for (const auto& b : requests(rec2)) CHECK(first_content(b) == "Line one.\nLine two.\n");
}

TEST_CASE("prompt shaping: --random-range-ratio with --prompt-corpus random: the seed's ISLs and OSLs, as NumPy draws them",
          "[e2e][prompt_shaping]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  // default_rng(42): ISLs integers(70, 131) = 75 117 109 96 96 122; OSLs integers(7, 14) = 7 11 8 7 10 13.
  Run run = profile(tmp, "run", {"--url", mock.url(), "--random-range-ratio", "0.3", "--isl", "100", "--osl", "10",
                                 "--prompt-corpus", "random", "--num-dataset-entries", "6", "--request-count", "6",
                                 "--random-seed", "42"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json inputs = run.inputs();
  std::vector<int> osl;
  for (const auto& e : inputs["data"]) osl.push_back(e["payloads"][0]["max_completion_tokens"].get<int>());
  CHECK(osl == std::vector<int>{7, 11, 8, 7, 10, 13});
  std::multiset<int> isl;
  for (const auto& r : run.records()) isl.insert(r["metrics"]["input_sequence_length"]["value"].get<int>());
  CHECK(isl == std::multiset<int>{75, 96, 96, 109, 117, 122});
  expect_no_errors(run, 6);

  // sglang with the sonnet corpus (no preseed): per turn an ISL in [30, 100] then an OSL in [3, 10]
  // from AIPerf's derived "models.range_ratio.distribution" stream of seed 42: (94, 7) (46, 10) (32, 3).
  Run s = profile(tmp, "sglang", {"--url", mock.url(), "--random-range-ratio", "0.3", "--isl", "100", "--osl", "10",
                                  "--random-corpus-style", "sglang", "--num-dataset-entries", "3", "--request-count",
                                  "3", "--random-seed", "42"});
  INFO(s.out << s.err);
  REQUIRE(s.exit_code == 0);
  const json sin = s.inputs();
  std::vector<int> sosl;
  for (const auto& e : sin["data"]) sosl.push_back(e["payloads"][0]["max_completion_tokens"].get<int>());
  CHECK(sosl == std::vector<int>{7, 10, 3});
  std::multiset<int> sisl;
  for (const auto& r : s.records()) sisl.insert(r["metrics"]["input_sequence_length"]["value"].get<int>());
  CHECK(sisl == std::multiset<int>{32, 46, 94});
}

TEST_CASE("prompt shaping: --cache-bust: one marker per session on the wire, none in inputs.json; warmup isolation",
          "[e2e][prompt_shaping]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--cache-bust", "first-turn-prefix", "--isl", "40",
                                 "--conversation-turn-mean", "2", "--num-dataset-entries", "2",
                                 "--conversation-num", "2", "--concurrency", "1", "--random-seed", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 4);
  std::vector<std::string> markers;
  for (const auto& b : bodies) {
    const std::string first = first_content(b);
    std::smatch m;
    REQUIRE(std::regex_search(first, m, kRidPrefix));
    markers.push_back(m.str());
  }
  // Sessions run one after the other at concurrency 1: turns 1-2, then 3-4.
  CHECK(markers[0] == markers[1]);
  CHECK(markers[2] == markers[3]);
  CHECK(markers[0] != markers[2]);
  CHECK(first_content(bodies[1]) == first_content(bodies[0]));  // the history holds the marked turn once
  REQUIRE(bodies[1]["messages"].size() == 3);
  CHECK_FALSE(std::regex_search(bodies[1]["messages"][2]["content"].get<std::string>(), kRidPrefix));
  const json inputs = run.inputs();
  CHECK_FALSE(std::regex_search(first_content(inputs["data"][0]["payloads"][0]), kRidPrefix));
  // The marker's ~12 GPT-2 tokens came off the first turn's 40, so its wire ISL stays near 40.
  for (const auto& r : run.records()) {
    const int isl = r["metrics"]["input_sequence_length"]["value"].get<int>();
    if (r["metadata"]["turn_index"].get<int>() == 0) CHECK((isl >= 38 && isl <= 42));
  }
  expect_no_errors(run, 4);

  // system-suffix on a verbatim system prompt.
  const std::string rec2 = tmp + "/requests2.jsonl";
  MockServer mock2({"--fast", "--record-requests", rec2}, aiperf::test::make_temp_dir());  // its own log
  Run run2 = profile(tmp, "run2", {"--url", mock2.url(), "--cache-bust", "system_suffix", "--system-prompt", "Sys.",
                                   "--isl", "6", "--request-count", "3", "--num-dataset-entries", "3"});
  INFO(run2.out << run2.err);
  REQUIRE(run2.exit_code == 0);
  std::set<std::string> systems;
  for (const auto& b : requests(rec2)) {
    const std::string sys = first_content(b);
    CHECK(sys.rfind("Sys.", 0) == 0);
    CHECK(std::regex_search(sys, kRidSuffix));
    systems.insert(sys);
  }
  CHECK(systems.size() == 3);  // three sessions, three markers

  // warmup-isolation-first-turn: "[warmup]" leads the warmup requests only.
  const std::string rec3 = tmp + "/requests3.jsonl";
  MockServer mock3({"--fast", "--record-requests", rec3}, aiperf::test::make_temp_dir());  // its own log
  Run run3 = profile(tmp, "run3", {"--url", mock3.url(), "--cache-bust", "warmup-isolation-first-turn", "--isl", "6",
                                   "--warmup-request-count", "2", "--request-count", "3", "--concurrency", "1"});
  INFO(run3.out << run3.err);
  REQUIRE(run3.exit_code == 0);
  const auto b3 = requests(rec3);
  REQUIRE(b3.size() == 5);
  for (size_t i = 0; i < b3.size(); ++i)
    CHECK((first_content(b3[i]).rfind("[warmup]\n\n", 0) == 0) == (i < 2));
  expect_no_errors(run3, 3);
}

TEST_CASE("prompt shaping: --image-source DIR with sequential-cycle: the directory's pictures in sorted order",
          "[e2e][prompt_shaping]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string images = tmp + "/images";
  std::filesystem::create_directories(images);
  // 2x2 solid red and blue PNGs; "a" sorts first.
  std::ofstream(images + "/a.png", std::ios::binary) << base64_decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==");
  std::ofstream(images + "/b.png", std::ios::binary) << base64_decode(
      "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAALHwEDmIWXfgAAAABJRU5ErkJggg==");
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--image-source", images, "--image-source-sampling",
                                 "sequential-cycle", "--image-width-mean", "8", "--image-height-mean", "4",
                                 "--image-format", "png", "--isl", "4", "--num-dataset-entries", "4",
                                 "--request-count", "4", "--random-seed", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const json inputs = run.inputs();
  std::vector<std::string> urls;
  for (const auto& e : inputs["data"]) urls.push_back(e["payloads"][0]["messages"][0]["content"][1]["image_url"]["url"]);
  REQUIRE(urls.size() == 4);
  CHECK(urls[0].rfind("data:image/png;base64,", 0) == 0);
  CHECK(urls[0] == urls[2]);  // red, blue, red, blue
  CHECK(urls[1] == urls[3]);
  CHECK(urls[0] != urls[1]);
  // A resized solid picture is solid: the noise default is not (its PNG is far larger).
  Run noise = profile(tmp, "noise", {"--url", mock.url(), "--image-width-mean", "8", "--image-height-mean", "4",
                                     "--image-format", "png", "--isl", "4", "--num-dataset-entries", "1",
                                     "--request-count", "1", "--random-seed", "1"});
  REQUIRE(noise.exit_code == 0);
  const json ninputs = noise.inputs();
  const std::string nurl = ninputs["data"][0]["payloads"][0]["messages"][0]["content"][1]["image_url"]["url"];
  CHECK(nurl.size() > urls[0].size());
  expect_no_errors(run, 4);

  // assets: the four built-in pictures in turn.
  Run assets = profile(tmp, "assets", {"--url", mock.url(), "--image-source", "assets", "--image-source-sampling",
                                       "sequential-cycle", "--image-width-mean", "8", "--image-height-mean", "4",
                                       "--image-format", "png", "--isl", "4", "--num-dataset-entries", "5",
                                       "--request-count", "5"});
  INFO(assets.out << assets.err);
  REQUIRE(assets.exit_code == 0);
  const json ainputs = assets.inputs();
  std::vector<std::string> aurls;
  for (const auto& e : ainputs["data"]) aurls.push_back(e["payloads"][0]["messages"][0]["content"][1]["image_url"]["url"]);
  REQUIRE(aurls.size() == 5);
  CHECK(std::set<std::string>(aurls.begin(), aurls.begin() + 4).size() == 4);
  CHECK(aurls[4] == aurls[0]);
}

TEST_CASE("prompt shaping refusals: exit 2, named, nothing written", "[e2e][prompt_shaping]") {
  const std::string dir = aiperf::test::make_temp_dir();
  std::ofstream(dir + "/empty.txt") << "  \n";
  std::ofstream(dir + "/single.jsonl") << "{\"text\": \"hi\"}\n";
  struct Bad {
    std::vector<std::string> args;
    std::string expected;
  };
  const std::vector<Bad> table = {
      {{"--random-range-ratio", "0.3"},
       "--random-range-ratio requires --osl to be set explicitly. There is no safe default when a ratio window is "
       "requested."},
      {{"--random-range-ratio", "abc", "--osl", "5"},
       "Invalid --random-range-ratio value: --random-range-ratio must be a float or a JSON object with 'input' and "
       "'output' keys, got: 'abc'"},
      {{"--random-range-ratio", "1.0", "--osl", "5"},
       "Invalid random_range_ratio value: ISL range_ratio must be in [0.0, 1.0), got 1.0"},
      {{"--random-range-ratio", "{\"input\":0.3,\"output\":0.5}", "--osl", "5", "--random-corpus-style", "sglang"},
       "Invalid --random-range-ratio value: SGLang corpus style applies a single ratio to both ISL and OSL."},
      {{"--random-range-ratio", "0.3", "--osl", "5", "--seq-dist", "100,10:100"},
       "random_range_ratio cannot be combined with sequence_distribution; use one or the other."},
      {{"--random-range-ratio", "0.3", "--osl", "5", "--isl-stddev", "3"},
       "--isl-stddev cannot be combined with --random-range-ratio"},
      {{"--random-range-ratio", "0.3", "--osl", "5", "--input-file", "{dir}/single.jsonl"},
       "--random-range-ratio is only supported with synthetic datasets; remove --input-file / --public-dataset"},
      {{"--random-corpus-style", "tgi"}, "--random-corpus-style"},
      {{"--prompt-corpus", "poetry"}, "--prompt-corpus"},
      {{"--system-prompt", "a", "--system-prompt-file", "{dir}/empty.txt"},
       "system_prompt (--system-prompt) and system_prompt_file (--system-prompt-file) are mutually exclusive"},
      {{"--system-prompt", "   "}, "system_prompt (--system-prompt) is empty or whitespace-only."},
      {{"--system-prompt-file", "{dir}/missing.txt"},
       "system_prompt_file (--system-prompt-file) could not be read: {dir}/missing.txt."},
      {{"--system-prompt-file", "{dir}/empty.txt"},
       "system_prompt_file (--system-prompt-file) is empty or whitespace-only: {dir}/empty.txt."},
      {{"--system-prompt", "a", "--shared-system-prompt-length", "5"},
       "--system-prompt/--system-prompt-file and --shared-system-prompt-length are mutually exclusive"},
      {{"--system-prompt", "a", "--endpoint-type", "completions"},
       "--system-prompt/--system-prompt-file is not supported by endpoint type 'completions' (no system role)"},
      {{"--cache-bust", "system-prefix", "--endpoint-type", "embeddings"},
       "cache-bust is not supported by endpoint embeddings"},
      {{"--cache-bust", "warmup-isolation-system"},
       "cache_bust=warmup_isolation_system requires a shared system prompt"},
      {{"--cache-bust", "everything"}, "--cache-bust"},
      {{"--image-source", "noise", "--image-source-sampling", "shuffle-cycle"},
       "images.source_sampling requires image source 'assets' or a directory path unless it is "
       "'random-with-replacement'; noise has no finite source pool"},
      {{"--image-source", "{dir}/nowhere", "--image-width-mean", "8", "--image-height-mean", "8"},
       "--image-source: The directory '{dir}/nowhere' does not exist."},
      {{"--image-source", "{dir}", "--image-width-mean", "8", "--image-height-mean", "8"},
       "--image-source: No source images found in '{dir}'."},
  };
  auto replace = [&dir](std::string s) {
    for (size_t at = 0; (at = s.find("{dir}", at)) != std::string::npos; at += dir.size()) s.replace(at, 5, dir);
    return s;
  };
  int i = 0;
  for (const auto& row : table) {
    const std::string artifacts = dir + "/artifacts" + std::to_string(i);
    std::vector<std::string> args{"profile", "--model", "m", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2",
                                  "--artifact-dir", artifacts};
    for (const auto& a : row.args) args.push_back(replace(a));
    Process p(std::string(AIPERF_BIN_DIR) + "/aiperf", args, dir, "bad" + std::to_string(i++));
    const auto rc = p.wait(60);
    INFO(row.args.front() << " -> " << p.err());
    REQUIRE(rc);
    CHECK(*rc == 2);
    CHECK(p.err().find("Error: ") != std::string::npos);
    CHECK(p.err().find(replace(row.expected)) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(artifacts));
  }
}
