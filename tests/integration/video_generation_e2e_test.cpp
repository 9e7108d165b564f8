// End-to-end: --endpoint-type video_generation against aiperf-mock-server's /v1/videos job API.
// The mock is scripted through the submitted form (mock_polls, mock_fail, size, seconds), so the
// test knows how many polls and downloads it must have answered and which inference time and
// peak memory it reported; the run's records and summary are checked against that.
#include <cstdlib>
#include <fstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.h"
#include "services/controller/http_get.h"

using nlohmann::json;
using namespace aiperf::test;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The mock's request counter for one route label and status (its /metrics page).
long mock_count(int port, const std::string& route, int status) {
  auto page = http_get(port, "/metrics");
  REQUIRE(page);
  const std::string key =
      "mock_server_requests_total{endpoint=\"" + route + "\",status=\"" + std::to_string(status) + "\"} ";
  const size_t at = page->body.find(key);
  if (at == std::string::npos) return 0;
  return std::stol(page->body.substr(at + key.size()));
}

// Polls 10 ms apart keep the runs short; set for the aiperf this test starts.
struct PollInterval {
  explicit PollInterval(const char* seconds) { setenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL", seconds, 1); }
  ~PollInterval() { unsetenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL"); }
};

struct VideoRun {
  std::string tmp;
  std::unique_ptr<MockServer> mock;
  ProfileRun run;
  std::vector<json> posts;  // bodies the mock recorded (multipart bodies as text)
};

VideoRun run_video(const std::vector<std::string>& args) {
  VideoRun v;
  v.tmp = make_temp_dir();
  const std::string rec = v.tmp + "/requests.jsonl";
  v.mock = std::make_unique<MockServer>(std::vector<std::string>{"--fast", "--record-requests", rec}, v.tmp);
  std::vector<std::string> full{"--endpoint-type", "video_generation", "--url", v.mock->url(), "--random-seed", "5"};
  full.insert(full.end(), args.begin(), args.end());
  v.run = run_named(v.tmp, "video", full);
  for (const auto& l : read_lines(rec)) {
    const json j = json::parse(l);
    CHECK(j["path"] == "/v1/videos");
    v.posts.push_back(j["body"]);
  }
  return v;
}

}  // namespace

TEST_CASE("video_generation: submit / poll until completed / download / the server's figures as metrics",
          "[e2e][video]") {
  PollInterval interval("0.01");
  VideoRun v = run_video({"--request-count", "3", "--concurrency", "1", "--download-video-content",
                          "--synthetic-input-tokens-mean", "8", "--synthetic-input-tokens-stddev", "0",
                          "--extra-inputs", "size:64x32", "--extra-inputs", "seconds:8", "--extra-inputs",
                          "mock_polls:3"});
  INFO(v.run.out << v.run.err);
  REQUIRE(v.run.exit_code == 0);
  // Three jobs: three submits, then per job 3 in_progress polls, the completed one and a download.
  REQUIRE(v.posts.size() == 3);
  for (const json& body : v.posts) {
    REQUIRE(body.is_string());  // multipart/form-data, as AIPerf sends this type
    const std::string form = body.get<std::string>();
    CHECK(has(form, "Content-Disposition: form-data; name=\"prompt\"\r\n\r\n"));
    CHECK(has(form, "name=\"model\"\r\n\r\nm\r\n"));
    CHECK(has(form, "name=\"size\"\r\n\r\n64x32\r\n"));
    CHECK(has(form, "name=\"seconds\"\r\n\r\n8\r\n"));
  }
  CHECK(mock_count(v.mock->port(), "/v1/videos", 200) == 3);
  CHECK(mock_count(v.mock->port(), "/v1/videos/{id}", 200) == 3 * (3 + 1 + 1));
  CHECK(mock_count(v.mock->port(), "/v1/videos/{id}", 404) == 0);

  const auto records = v.run.records();
  REQUIRE(records.size() == 3);
  for (const json& r : records) {
    CHECK_FALSE(r.contains("error"));
    const json& m = r["metrics"];
    CHECK(m["video_inference_time"] == json{{"value", 1000.0}, {"unit", "ms"}});  // seconds / 8 = 1 s
    CHECK(m["video_peak_memory"] == json{{"value", 2.0}, {"unit", "MB"}});       // 64 * 32 / 1024
    CHECK(m["input_sequence_length"]["value"] == 8);
    // Three waits of 10 ms between polls at least.
    CHECK(m["request_latency"]["value"].get<double>() >= 30.0);
  }
  const json s = v.run.summary();
  CHECK(s["request_count"]["avg"] == 3);
  CHECK(s["video_inference_time"]["unit"] == "ms");
  CHECK(s["video_inference_time"]["avg"] == 1000.0);
  CHECK(s["video_inference_time"]["min"] == 1000.0);
  CHECK(s["video_inference_time"]["max"] == 1000.0);
  CHECK(s["video_peak_memory"]["unit"] == "MB");
  CHECK(s["video_peak_memory"]["avg"] == 2.0);
  CHECK(s["input_sequence_length"]["avg"] == 8);
  CHECK_FALSE(s.contains("http_req_duration"));  // a job spans several requests: no HTTP phases, as AIPerf
  CHECK_FALSE(s.contains("output_token_throughput"));
  CHECK(has(v.run.out, "NVIDIA AIPerf | Video Generation Metrics"));
  CHECK(has(v.run.out, "Video Inference Time (ms)"));
  CHECK(has(v.run.out, "Video Peak Memory (MB)"));
}

TEST_CASE("video_generation: without --download-video-content nothing is downloaded", "[e2e][video]") {
  PollInterval interval("0.01");
  VideoRun v = run_video({"--request-count", "2", "--concurrency", "2", "--extra-inputs", "mock_polls:0"});
  INFO(v.run.out << v.run.err);
  REQUIRE(v.run.exit_code == 0);
  CHECK(v.posts.size() == 2);
  CHECK(mock_count(v.mock->port(), "/v1/videos/{id}", 200) == 2);  // one poll each, already completed
  CHECK(v.run.records().size() == 2);
  CHECK(v.run.summary()["video_peak_memory"]["avg"] == 900.0);  // the mock's default 1280x720
}

TEST_CASE("video_generation: failed jobs are error records and the run exits 1", "[e2e][video]") {
  PollInterval interval("0.01");
  VideoRun v = run_video({"--request-count", "2", "--concurrency", "1", "--extra-inputs", "mock_fail:true"});
  INFO(v.run.out << v.run.err);
  CHECK(v.run.exit_code == 1);  // every request failed (the reference exits 1 too)
  CHECK(v.posts.size() == 2);
  CHECK(mock_count(v.mock->port(), "/v1/videos/{id}", 200) == 2 * 3);  // 2 in_progress, then failed
  const auto records = v.run.records();
  REQUIRE(records.size() == 2);
  for (const json& r : records) {
    REQUIRE(r.contains("error"));
    CHECK(r["error"] == json{{"code", 500},
                             {"type", "VideoGenerationError"},
                             {"message", "Video generation failed: mock video generation failed"}});
    CHECK_FALSE(r["metrics"].contains("video_inference_time"));
  }
  const json s = v.run.summary();
  CHECK(s["error_request_count"]["avg"] == 2);
  CHECK_FALSE(s.contains("video_inference_time"));
}

TEST_CASE("video_generation: a job that never completes ends at the request timeout", "[e2e][video]") {
  PollInterval interval("0.05");
  VideoRun v = run_video({"--request-count", "2", "--concurrency", "2", "--request-timeout-seconds", "0.3",
                          "--extra-inputs", "mock_polls:1000000"});
  INFO(v.run.out << v.run.err);
  CHECK(v.run.exit_code == 1);
  const auto records = v.run.records();
  REQUIRE(records.size() == 2);
  for (const json& r : records) {
    CHECK(r["error"] == json{{"code", 504}, {"type", "TimeoutError"}, {"message", "Video generation timed out after 0.3s"}});
  }
}

TEST_CASE("video_generation: bad settings exit 2 before anything runs", "[e2e][video]") {
  const std::string tmp = make_temp_dir();
  {
    PollInterval interval("0");
    ProfileRun bad = run_named(tmp, "interval", {"--endpoint-type", "video_generation", "--url", "http://127.0.0.1:9"});
    CHECK(bad.exit_code == 2);
    CHECK(has(bad.err + bad.out, "AIPERF_HTTP_VIDEO_POLL_INTERVAL: must be a number of seconds from 0.001 to 10 (got '0')"));
  }
  ProfileRun json_body = run_named(tmp, "json", {"--endpoint-type", "video_generation", "--url", "http://127.0.0.1:9",
                                                 "--request-content-type", "application/json"});
  CHECK(json_body.exit_code == 2);
  CHECK(has(json_body.err + json_body.out,
            "endpoint type video_generation requires multipart/form-data; application/json is not supported."));
}

TEST_CASE("video_generation: endpoint.download_video_content in a config file downloads the videos",
          "[e2e][video]") {
  PollInterval interval("0.01");
  const std::string tmp = make_temp_dir();
  MockServer mock({"--fast"}, tmp);
  const std::string yaml = tmp + "/video.yaml";
  {
    std::ofstream f(yaml);
    f << "schemaVersion: \"2.0\"\nbenchmark:\n  model: m\n  endpoint:\n    url: " << mock.url()
      << "\n    type: video_generation\n    download_video_content: true\n    extra: {mock_polls: 0}\n"
         "  dataset:\n    type: synthetic\n    entries: 2\n    prompts:\n      isl: 8\n"
         "  phases:\n    type: concurrency\n    concurrency: 1\n    requests: 2\n";
  }
  ProfileRun run = run_named(tmp, "config", {"--config", yaml});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.records().size() == 2);
  CHECK(mock_count(mock.port(), "/v1/videos", 200) == 2);
  CHECK(mock_count(mock.port(), "/v1/videos/{id}", 200) == 2 * (1 + 1));  // the completed poll, the download
}
