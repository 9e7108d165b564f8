// End-to-end: `genai-perf profile` (the symlink) with GenAI-Perf's image, audio and session
// options against the mock, which records every body it receives (--record-requests): the
// bodies sent (parts, image sizes, WAV layouts, chat history), their number, and the files
// GenAI-Perf writes (inputs.json rows with session_id/delay, perf_analyzer's session records,
// per-session statistics). Refusals exit 2 and write nothing.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "genai_perf_run.h"
#include "process.h"
#include "run_checks.h"

using aiperf::test::base64_decode;
using aiperf::test::MockServer;
using aiperf::test::read_file;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

using Run = aiperf::test::GenAiPerfRun;
using aiperf::test::files_under;

Run genai_perf(const std::string& tmp, std::vector<std::string> args, const std::string& name) {
  args.insert(args.begin(), "profile");
  return aiperf::test::run_genai_perf(tmp, args, name, false, 180);
}

uint32_t be32(const std::string& b, size_t at) {
  return (uint32_t(uint8_t(b[at])) << 24) | (uint32_t(uint8_t(b[at + 1])) << 16) | (uint32_t(uint8_t(b[at + 2])) << 8) |
         uint32_t(uint8_t(b[at + 3]));
}
uint32_t le(const std::string& b, size_t at, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | uint8_t(b[at + i]);
  return v;
}

// The mock appends a body after it has answered, so the client may finish first: wait (at
// most 5 s) until `n` bodies are there, then return what was recorded.
std::vector<json> bodies_once(const std::string& rec, size_t n) {
  for (int i = 0; i < 100; ++i) {
    if (fs::exists(rec) && aiperf::test::recorded_bodies(rec).size() >= n) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return fs::exists(rec) ? aiperf::test::recorded_bodies(rec) : std::vector<json>{};
}

}  // namespace

TEST_CASE("genai-perf multimodal: every request carries its text, two PNG images and a WAV clip as sent",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const Run r = genai_perf(tmp,
                           {"-m",
                            "m",
                            "--endpoint-type",
                            "multimodal",
                            "-u",
                            mock.url(),
                            "--concurrency",
                            "2",
                            "--request-count",
                            "6",
                            "--num-dataset-entries",
                            "3",
                            "--synthetic-input-tokens-mean",
                            "12",
                            "--output-tokens-mean",
                            "3",
                            "--image-width-mean",
                            "40",
                            "--image-height-mean",
                            "20",
                            "--batch-size-image",
                            "2",
                            "--audio-length-mean",
                            "0.25",
                            "--audio-sample-rates",
                            "8",
                            "--audio-depths",
                            "16",
                            "--audio-num-channels",
                            "2",
                            "--tokenizer",
                            "gpt2",
                            "--artifact-dir",
                            tmp + "/arts"},
                           "mm");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("NVIDIA GenAI-Perf | Multi-Modal Metrics") != std::string::npos);
  const std::string dir = tmp + "/arts/m-openai-multimodal-concurrency2";
  CHECK(files_under(dir) == std::vector<std::string>{"inputs.json", "logs/aiperf.log", "profile_export.json",
                                                     "profile_export_genai_perf.csv",
                                                     "profile_export_genai_perf.json"});
  const auto bodies = bodies_once(rec, 6);
  REQUIRE(bodies.size() == 6);
  for (const json& b : bodies) {
    CHECK(b["model"] == "m");
    CHECK(b["max_tokens"] == 3);  // GenAI-Perf's chat converter: max_tokens
    REQUIRE(b["messages"].size() == 1);
    const json& content = b["messages"][0]["content"];
    REQUIRE(content.size() == 4);
    CHECK(content[0]["type"] == "text");
    CHECK_FALSE(content[0]["text"].get<std::string>().empty());
    for (int i : {1, 2}) {
      CHECK(content[i]["type"] == "image_url");
      const std::string url = content[i]["image_url"]["url"];
      REQUIRE(url.rfind("data:image/png;base64,", 0) == 0);  // GenAI-Perf's default format
      const std::string png = base64_decode(url.substr(22));
      CHECK(be32(png, 16) == 40);  // IHDR width, height: stddev 0
      CHECK(be32(png, 20) == 20);
    }
    CHECK(content[3]["type"] == "input_audio");
    CHECK(content[3]["input_audio"]["format"] == "wav");
    const std::string wav = base64_decode(content[3]["input_audio"]["data"].get<std::string>());
    CHECK(wav.substr(0, 4) == "RIFF");
    CHECK(le(wav, 22, 2) == 2);                 // channels
    CHECK(le(wav, 24, 4) == 8000);              // sample rate
    CHECK(le(wav, 34, 2) == 16);                // bits
    CHECK(le(wav, 40, 4) == 8000 * 2 * 2 / 4);  // 0.25 s of data
  }
  // inputs.json: one row per dataset entry, the same content; the echo.
  const json inputs = json::parse(read_file(dir + "/inputs.json"));
  REQUIRE(inputs["data"].size() == 3);
  CHECK(inputs["data"][0]["payload"][0]["messages"][0]["content"].size() == 4);
  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 6.0);
  CHECK(stats["input_config"]["endpoint"]["output_format"] == "openai_multimodal");
  CHECK(stats["input_config"]["input"]["image"]["batch_size"] == 2);
  CHECK(stats["input_config"]["input"]["audio"]["sample_rates"] == json::array({8.0}));

  // chat: GenAI-Perf makes the media, its chat converter sends the text alone (the same mock:
  // its bodies 7 and 8).
  const Run c = genai_perf(tmp,
                           {"-m",
                            "m",
                            "--endpoint-type",
                            "chat",
                            "-u",
                            mock.url(),
                            "--request-count",
                            "2",
                            "--synthetic-input-tokens-mean",
                            "12",
                            "--image-width-mean",
                            "40",
                            "--image-height-mean",
                            "20",
                            "--audio-length-mean",
                            "0.25",
                            "--tokenizer",
                            "gpt2",
                            "--artifact-dir",
                            tmp + "/chat"},
                           "chat");
  INFO(c.out << c.err);
  REQUIRE(c.exit_code == 0);
  const auto all = bodies_once(rec, 8);
  REQUIRE(all.size() == 8);
  const std::vector<json> chat_bodies(all.begin() + 6, all.end());
  for (const json& b : chat_bodies) CHECK(b["messages"][0]["content"].is_string());

  // multimodal without media: the text as a one-part list, as GenAI-Perf's multimodal converter
  // writes it (the mock's bodies 9 and 10).
  const Run t =
      genai_perf(tmp,
                 {"-m", "m", "--endpoint-type", "multimodal", "-u", mock.url(), "--request-count", "2",
                  "--synthetic-input-tokens-mean", "12", "--tokenizer", "gpt2", "--artifact-dir", tmp + "/text"},
                 "text");
  INFO(t.out << t.err);
  REQUIRE(t.exit_code == 0);
  const auto more = bodies_once(rec, 10);
  REQUIRE(more.size() == 10);
  for (size_t i = 8; i < 10; ++i) {
    const json& content = more[i]["messages"][0]["content"];
    REQUIRE(content.is_array());
    REQUIRE(content.size() == 1);
    CHECK(content[0]["type"] == "text");
  }
}

TEST_CASE("genai-perf sessions: each session's turns once, in order, with the history; GenAI-Perf's files",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  const Run r = genai_perf(tmp,
                           {"-m",
                            "m",
                            "--endpoint-type",
                            "chat",
                            "-u",
                            mock.url(),
                            "--num-sessions",
                            "3",
                            "--session-concurrency",
                            "2",
                            "--session-turns-mean",
                            "3",
                            "--session-turn-delay-mean",
                            "30",
                            "--synthetic-input-tokens-mean",
                            "12",
                            "--output-tokens-mean",
                            "2",
                            "--request-count",
                            "50",
                            "--tokenizer",
                            "gpt2",
                            "--artifact-dir",
                            tmp + "/arts"},
                           "sess");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/m-openai-chat-session_concurrency2";
  REQUIRE(fs::is_directory(dir));
  // 3 sessions x 3 turns, each turn once (perf_analyzer's session mode ignores --request-count).
  const auto bodies = bodies_once(rec, 9);
  REQUIRE(bodies.size() == 9);
  std::map<size_t, int> by_length;  // turn k carries 2k + 1 messages: user, assistant, ..., user
  for (const json& b : bodies) {
    const json& msgs = b["messages"];
    ++by_length[msgs.size()];
    for (size_t i = 0; i < msgs.size(); ++i) CHECK(msgs[i]["role"] == (i % 2 ? "assistant" : "user"));
  }
  CHECK(by_length == std::map<size_t, int>{{1, 3}, {3, 3}, {5, 3}});

  const json inputs = json::parse(read_file(dir + "/inputs.json"));
  REQUIRE(inputs["data"].size() == 9);
  std::vector<std::string> ids;
  for (size_t i = 0; i < 9; ++i) {
    const json& row = inputs["data"][i];
    ids.push_back(row["session_id"][0]);
    // The delay after each turn but a session's last (mean 30, stddev 0).
    if (i % 3 < 2) CHECK(row["delay"] == json::array({30}));
    else CHECK_FALSE(row.contains("delay"));
    CHECK(row["payload"][0]["messages"].size() == 1);  // the rows hold the turn's own message
  }
  CHECK(std::set<std::string>(ids.begin(), ids.end()).size() == 3);
  CHECK(ids[0] == ids[2]);
  CHECK(ids[3] == ids[5]);

  const json pa = json::parse(read_file(dir + "/profile_export.json"));
  const json& exp = pa["experiments"][0];
  CHECK(exp["experiment"] == json{{"mode", "request_rate"}, {"value", 0.0}});
  CHECK(exp["window_boundaries"].dump() == "[0,18446744073709551615]");
  REQUIRE(exp["requests"].size() == 9);
  int delays = 0;
  for (const json& q : exp["requests"]) {
    CHECK(q["request_inputs"]["session_id"].is_string());
    delays += q["request_inputs"].contains("delay") ? 1 : 0;
  }
  CHECK(delays == 6);

  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 9.0);
  CHECK(stats["input_config"]["perf_analyzer"]["stimulus"] == json{{"session_concurrency", 2}});
  REQUIRE(stats["sessions"].size() == 3);
  for (const std::string& id : ids) CHECK(stats["sessions"][id]["request_count"]["avg"] == 3.0);
  // input_config comes before the sessions, as GenAI-Perf writes them.
  const auto ordered = nlohmann::ordered_json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  std::vector<std::string> keys;
  for (auto it = ordered.begin(); it != ordered.end(); ++it) keys.push_back(it.key());
  CHECK(keys.back() == "sessions");
  CHECK(keys[keys.size() - 2] == "input_config");
}

TEST_CASE("genai-perf media and session refusals: GenAI-Perf's (exit 2) and perf_analyzer's (exit 1), nothing written",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  struct Case {
    std::vector<std::string> extra;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {{"--endpoint-type", "chat", "--num-sessions", "3"},
       1,
       "error: Failed to init manager inputs: The input or output 'session_id' is not found in the model "
       "configuration"},
      {{"--endpoint-type", "chat", "--num-sessions", "1", "--session-concurrency", "2"},
       1,
       "error: The input data file contains 1 unique session IDs, which is fewer than the required session "
       "concurrency level of 2."},
      {{"--endpoint-type", "multimodal", "--audio-length-mean", "1", "--audio-depths", "12"},
       2,
       "Unsupported bit depth: 12"},
      {{"--endpoint-type", "multimodal", "--image-format", "gif"}, 2, "argument --image-format: invalid choice: 'gif'"},
  };
  int n = 0;
  for (const Case& c : cases) {
    std::vector<std::string> args{"-m", "m", "-u", "http://127.0.0.1:9", "--artifact-dir", tmp + "/arts"};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    const Run r = genai_perf(tmp, args, "bad" + std::to_string(n++));
    INFO(r.err);
    CHECK(r.exit_code == c.exit_code);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK_FALSE(fs::exists(tmp + "/arts"));
  }
  // --dry-run takes what only perf_analyzer refuses, saying so.
  const Run dry = genai_perf(tmp,
                             {"-m", "m", "--endpoint-type", "chat", "--num-sessions", "3", "--tokenizer", "gpt2",
                              "--dry-run", "--artifact-dir", tmp + "/arts"},
                             "dry");
  INFO(dry.err);
  CHECK(dry.exit_code == 0);
  CHECK(dry.err.find("Warning: perf_analyzer would refuse this run: Failed to init manager inputs") !=
        std::string::npos);
}

TEST_CASE("genai-perf --backend vllm: Triton's vLLM tensors over gRPC, the limit in sampling_parameters",
          "[e2e][genai_perf]") {
  const std::string tmp = aiperf::test::make_temp_dir();
  MockServer mock({"--grpc-port", "0", "--ttft", "20", "--itl", "5"}, tmp);
  std::smatch m;
  const std::string mock_out = mock.process().out();
  REQUIRE(std::regex_search(mock_out, m, std::regex(R"(gRPC listening on grpc://([^\s]+))")));
  const Run r = genai_perf(tmp,
                           {"-m", "vllm_model", "--backend", "vllm", "--streaming", "-u", m[1], "--concurrency", "2",
                            "--request-count", "4", "--synthetic-input-tokens-mean", "16", "--output-tokens-mean", "6",
                            "--tokenizer", "gpt2", "--artifact-dir", tmp + "/arts"},
                           "vllm");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string dir = tmp + "/arts/vllm_model-triton-vllm-concurrency2";
  const json stats = json::parse(read_file(dir + "/profile_export_genai_perf.json"));
  CHECK(stats["request_count"]["avg"] == 4.0);
  for (const char* s : {"avg", "min", "max"}) {
    CHECK(stats["input_sequence_length"][s] == 16.0);
    CHECK(stats["output_sequence_length"][s] == 6.0);  // the mock honours sampling_parameters' max_tokens
  }
  CHECK(stats["input_config"]["endpoint"]["backend"] == "vllm");
  CHECK(stats["input_config"]["endpoint"]["output_format"] == "vllm");
  const json pa = json::parse(read_file(dir + "/profile_export.json"));
  REQUIRE(pa["experiments"][0]["requests"].size() == 4);
  for (const json& q : pa["experiments"][0]["requests"]) {
    CHECK(q["response_outputs"].size() == 6);  // streamed: one response per token
    const json inputs = json::parse(q["request_inputs"]["payload"].get<std::string>())["inputs"];
    REQUIRE(inputs.size() == 4);
    CHECK(inputs[0]["name"] == "text_input");
    CHECK(inputs[1] ==
          json::parse(R"({"name":"exclude_input_in_output","datatype":"BOOL","shape":[1,1],"data":[true]})"));
    CHECK(inputs[2] == json::parse(R"({"name":"stream","datatype":"BOOL","shape":[1,1],"data":[true]})"));
    CHECK(inputs[3] ==
          json::parse(
              R"({"name":"sampling_parameters","datatype":"BYTES","shape":[1,1],"data":["{\"max_tokens\":\"6\"}"]})"));
  }
}
