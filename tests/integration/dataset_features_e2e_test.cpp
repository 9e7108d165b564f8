// End-to-end: synthetic dataset features (prefix pool, shared system / user-context prompts,
// --seq-dist, images, audio, rankings) and the bailian_trace / ShareGPT inputs, each run
// against aiperf-mock-server with zero errors; checks what the mock received
// (--record-requests), inputs.json, and that corrupted inputs stop the run with exit 2.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

#include "process.h"
#include "run_checks.h"

using aiperf::test::MockServer;
using aiperf::test::read_file;
using aiperf::test::read_lines;
using nlohmann::json;

namespace {

const std::string kData = std::string(AIPERF_TEST_DATA) + "/datasets/";

using Run = aiperf::test::ProfileRun;

Run profile(const std::string& tmp, const std::string& name, std::vector<std::string> args) {
  return aiperf::test::run_named(tmp, name, args);
}

// The bodies the mock received, in arrival order.
std::vector<json> requests(const std::string& file) { return aiperf::test::recorded_bodies(file); }

using aiperf::test::base64_decode;
using aiperf::test::expect_no_errors;

uint32_t be(const std::string& b, size_t at, int n) {
  uint32_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}

uint32_t le(const std::string& b, size_t at, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
  return v;
}

// Width and height from a JPEG's SOF0 segment.
std::pair<uint32_t, uint32_t> jpeg_size(const std::string& b) {
  size_t i = 2;
  while (i + 9 < b.size()) {
    REQUIRE(static_cast<uint8_t>(b[i]) == 0xff);
    const uint8_t marker = static_cast<uint8_t>(b[i + 1]);
    if (marker == 0xc0) return {be(b, i + 7, 2), be(b, i + 5, 2)};
    i += 2 + be(b, i + 2, 2);
  }
  FAIL("no SOF0 segment");
  return {};
}

std::string common_prefix(const std::vector<std::string>& texts) {
  std::string p = texts.at(0);
  for (const auto& t : texts) {
    size_t n = 0;
    while (n < p.size() && n < t.size() && p[n] == t[n]) ++n;
    p.resize(n);
  }
  return p;
}

}  // namespace

TEST_CASE("prefix pool of one: every request starts with the same prefix", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--num-prefix-prompts", "1", "--prefix-prompt-length", "30",
                                 "--isl", "5", "--num-dataset-entries", "4", "--request-count", "4",
                                 "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 4);
  std::vector<std::string> contents;
  for (const auto& b : bodies) contents.push_back(b["messages"][0]["content"]);
  const std::string prefix = common_prefix(contents);
  // 30 prefix tokens (> 60 characters of prose) are shared; the 5-token prompts after differ.
  CHECK(prefix.size() > 60);
  CHECK(std::set<std::string>(contents.begin(), contents.end()).size() == 4);
  for (const auto& c : contents) CHECK(c.size() < prefix.size() + 60);
  expect_no_errors(run, 4);
}

TEST_CASE("shared system prompt and user-context prompts lead every request", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--shared-system-prompt-length", "20",
                                 "--user-context-prompt-length", "10", "--isl", "5", "--num-dataset-entries", "3",
                                 "--request-count", "3", "--random-seed", "5"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 3);
  std::set<std::string> systems, contexts;
  for (const auto& b : bodies) {
    REQUIRE(b["messages"].size() == 3);
    CHECK(b["messages"][0]["role"] == "system");
    CHECK(b["messages"][1]["role"] == "user");
    CHECK(b["messages"][2] == json{{"role", "user"}, {"content", b["messages"][2]["content"]}});  // no "name"
    systems.insert(b["messages"][0]["content"].get<std::string>());
    contexts.insert(b["messages"][1]["content"].get<std::string>());
  }
  CHECK(systems.size() == 1);
  CHECK(contexts.size() == 3);
  // inputs.json carries the same messages.
  const json inputs = run.inputs();
  CHECK(inputs["data"][0]["payloads"][0]["messages"][0]["content"] == *systems.begin());
  expect_no_errors(run, 3);
}

TEST_CASE("seq-dist: max tokens from the drawn pairs in their proportions", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--seq-dist", "[(4,3):50,(6,5):50]",
                                 "--num-dataset-entries", "40", "--request-count", "40", "--concurrency", "4",
                                 "--random-seed", "8"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  std::map<int, int> sent;
  for (const auto& b : requests(rec)) ++sent[b["max_completion_tokens"].get<int>()];
  std::map<int, int> planned;
  const json inputs = run.inputs();  // kept alive: a range-for over a temporary's member dangles
  for (const auto& e : inputs["data"]) ++planned[e["payloads"][0]["max_completion_tokens"].get<int>()];
  REQUIRE(planned.size() == 2);
  CHECK(planned[3] + planned[5] == 40);
  CHECK(planned[3] >= 10);
  CHECK(planned[5] >= 10);
  CHECK(sent == planned);  // shuffle: each conversation exactly once
  auto records = run.records();
  for (const auto& r : records) {
    const int isl = r["metrics"]["input_sequence_length"]["value"];
    CHECK((isl == 4 || isl == 6));  // exact ISL of the pair
  }
  expect_no_errors(run, 40);
}

TEST_CASE("synthetic JPEG images and WAV audio in chat content parts", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--isl", "5", "--image-width-mean", "32",
                                 "--image-height-mean", "16", "--image-format", "jpeg", "--batch-size-image", "2",
                                 "--audio-length-mean", "0.1", "--audio-sample-rates", "8", "--audio-depths", "16",
                                 "--num-dataset-entries", "2", "--request-count", "2", "--random-seed", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 2);
  for (const auto& b : bodies) {
    const json& parts = b["messages"][0]["content"];
    REQUIRE(parts.size() == 4);  // text, 2 images, 1 audio
    CHECK(parts[0]["type"] == "text");
    for (int i = 1; i <= 2; ++i) {
      CHECK(parts[i]["type"] == "image_url");
      const std::string url = parts[i]["image_url"]["url"];
      const std::string prefix = "data:image/jpeg;base64,";
      REQUIRE(url.rfind(prefix, 0) == 0);
      const std::string jpeg = base64_decode(url.substr(prefix.size()));
      CHECK(jpeg_size(jpeg) == std::pair<uint32_t, uint32_t>{32, 16});
    }
    CHECK(parts[3]["type"] == "input_audio");
    CHECK(parts[3]["input_audio"]["format"] == "wav");
    const std::string wav = base64_decode(parts[3]["input_audio"]["data"]);
    CHECK(wav.substr(0, 4) == "RIFF");
    CHECK(le(wav, 22, 2) == 1);     // channels
    CHECK(le(wav, 24, 4) == 8000);  // sample rate
    CHECK(le(wav, 34, 2) == 16);    // bits
    CHECK(le(wav, 40, 4) == 1600);  // 0.1 s x 8000 x 2 bytes
  }
  expect_no_errors(run, 2);
}

TEST_CASE("synthetic PNG images: same seed gives a byte-identical inputs.json", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  std::vector<std::string> args{"--url", mock.url(), "--isl", "4", "--image-width-mean", "20",
                                "--image-width-stddev", "4", "--image-height-mean", "10", "--image-format", "random",
                                "--audio-length-mean", "0.05", "--num-prefix-prompts", "2",
                                "--prefix-prompt-length", "6", "--seq-dist", "4,3:50;5,4:50",
                                "--num-dataset-entries", "3", "--request-count", "3", "--random-seed", "77"};
  Run a = profile(tmp, "a", args);
  Run b = profile(tmp, "b", args);
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  CHECK(read_file(a.dir + "/inputs.json") == read_file(b.dir + "/inputs.json"));
  const json inputs = a.inputs();
  REQUIRE(inputs["data"].size() == 3);
  const std::string url = inputs["data"][0]["payloads"][0]["messages"][0]["content"][1]["image_url"]["url"];
  if (url.rfind("data:image/png;base64,", 0) == 0) {
    const std::string png = base64_decode(url.substr(22));
    CHECK(png.substr(1, 3) == "PNG");
    CHECK(be(png, 20, 4) == 10);  // IHDR height
  } else {
    REQUIRE(url.rfind("data:image/jpeg;base64,", 0) == 0);
    CHECK(jpeg_size(base64_decode(url.substr(23))).second == 10);
  }
  expect_no_errors(a, 3);
}

TEST_CASE("synthetic rankings: one query and the requested passages", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--endpoint-type", "nim_rankings",
                                 "--rankings-passages-mean", "3", "--rankings-query-prompt-token-mean", "5",
                                 "--rankings-passages-prompt-token-mean", "7", "--num-dataset-entries", "2",
                                 "--request-count", "2", "--random-seed", "2"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 2);
  for (const auto& b : bodies) {
    CHECK(b["model"] == "m");
    CHECK(b["query"]["text"].is_string());
    REQUIRE(b["passages"].size() == 3);
    for (const auto& p : b["passages"]) CHECK(p["text"].is_string());
  }
  expect_no_errors(run, 2);

  Run wrong = profile(tmp, "wrong", {"--url", mock.url(), "--rankings-passages-mean", "3"});
  CHECK(wrong.exit_code == 2);
  CHECK(wrong.err.find("--rankings-passages-mean requires a rankings --endpoint-type") != std::string::npos);
}

TEST_CASE("bailian_trace: sessions replayed on their timestamps with their output lengths", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--input-file", kData + "bailian_trace.jsonl",
                                 "--custom-dataset-type", "bailian_trace"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 3);  // fixed schedule: every line once
  std::multiset<int> max_tokens;
  for (const auto& b : bodies) max_tokens.insert(b["max_completion_tokens"].get<int>());
  CHECK(max_tokens == std::multiset<int>{4, 5, 6});
  const json inputs = run.inputs();
  REQUIRE(inputs["data"].size() == 2);
  CHECK(inputs["data"][0]["session_id"] == "159");
  CHECK(inputs["data"][0]["payloads"].size() == 2);
  CHECK(inputs["data"][1]["session_id"] == "200");
  // Hash-id blocks: session 159's turns share their first three 16-token blocks.
  const std::string t1 = inputs["data"][0]["payloads"][0]["messages"][0]["content"];
  const std::string t2 = inputs["data"][0]["payloads"][1]["messages"][0]["content"];
  CHECK(t2.rfind(t1, 0) == 0);
  expect_no_errors(run, 3);
}

TEST_CASE("ShareGPT from a local file: filtered prompts with their completion lengths", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  Run run = profile(tmp, "run", {"--url", mock.url(), "--public-dataset", "sharegpt", "--input-file",
                                 kData + "sharegpt_tiny.json", "--request-count", "4", "--concurrency", "1"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const auto bodies = requests(rec);
  REQUIRE(bodies.size() == 4);  // sequential: the two kept entries, wrapping around
  CHECK(bodies[0]["messages"][0]["content"] == "Can you explain how a hash table resolves collisions in practice?");
  CHECK(bodies[1]["messages"][0]["content"] == "Write a haiku about the sea at night, please.");
  CHECK(bodies[2]["messages"][0]["content"] == bodies[0]["messages"][0]["content"]);
  CHECK(bodies[0]["max_completion_tokens"].get<int>() >= 4);
  CHECK(run.inputs()["data"].size() == 2);
  expect_no_errors(run, 4);
}

TEST_CASE("corrupted new inputs fail before anything runs: file:line and field, exit 2", "[e2e][dataset_features]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string bailian = kData + "bailian_corrupt.jsonl";
  Run b = profile(tmp, "bailian", {"--url", "http://127.0.0.1:1", "--input-file", bailian});
  CHECK(b.exit_code == 2);
  CHECK(b.err.find(bailian + ":2: field 'input_length': must be an integer >= 1, got \"many\"") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(b.dir));

  const std::string sharegpt = kData + "sharegpt_corrupt.json";
  Run s = profile(tmp, "sharegpt", {"--url", "http://127.0.0.1:1", "--public-dataset", "sharegpt", "--input-file",
                                    sharegpt});
  CHECK(s.exit_code == 2);
  CHECK(s.err.find(sharegpt + ":3: field 'conversations[1].value': must be a string") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(s.dir));

  Run d = profile(tmp, "seqdist", {"--url", "http://127.0.0.1:1", "--seq-dist", "256,128:40;512,256:50"});
  CHECK(d.exit_code == 2);
  CHECK(d.err.find("--seq-dist '256,128:40;512,256:50': percentages must sum to 100, got 90") != std::string::npos);

  Run p = profile(tmp, "prefix", {"--url", "http://127.0.0.1:1", "--num-prefix-prompts", "2",
                                  "--shared-system-prompt-length", "5"});
  CHECK(p.exit_code == 2);
  CHECK(p.err.find("cannot be combined with --prefix-prompt-pool-size") != std::string::npos);

  Run u = profile(tmp, "context", {"--url", "http://127.0.0.1:1", "--user-context-prompt-length", "5"});
  CHECK(u.exit_code == 2);
  CHECK(u.err.find("--user-context-prompt-length requires --num-dataset-entries") != std::string::npos);
}
