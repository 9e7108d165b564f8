// End-to-end: --video-* against aiperf-mock-server. What the mock received: chat content parts
// [text, video_url...] as AIPerf 0.13 sends them, each video a data URL that ffprobe decodes to
// the requested codec, size, frame rate, duration and audio track; inputs.json carries the same
// bodies; a clip that never changes is encoded once (every request the same URL), noise clips
// differ. Without ffmpeg on PATH the run exits 2 before anything is written.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include "process.h"
#include "run_checks.h"

using nlohmann::json;
using namespace aiperf::test;
namespace fs = std::filesystem;

namespace {

// ffprobe's `entries` of the video in `data_url` ("key=value" lines).
std::string probe(const std::string& data_url, const std::string& entries, const std::string& prefix) {
  REQUIRE(data_url.rfind(prefix, 0) == 0);
  const std::string tmp = make_temp_dir();
  const std::string file = tmp + "/clip";
  const std::string bytes = base64_decode(data_url.substr(prefix.size()));
  std::ofstream(file, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  const std::string cmd = "ffprobe -v error -show_entries " + entries + " -of default=nw=1 " + file;
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[512];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    ::pclose(p);
  }
  fs::remove_all(tmp);
  return out;
}

// The video URLs of a recorded chat body, after checking the parts are [text, video_url x n].
std::vector<std::string> video_urls(const json& body, size_t n) {
  const json& content = body["messages"][0]["content"];
  REQUIRE(content.is_array());
  REQUIRE(content.size() == n + 1);
  CHECK(content[0]["type"] == "text");
  std::vector<std::string> urls;
  for (size_t i = 1; i < content.size(); ++i) {
    CHECK(content[i].size() == 2);
    CHECK(content[i]["type"] == "video_url");
    CHECK(content[i]["video_url"].size() == 1);
    urls.push_back(content[i]["video_url"]["url"].get<std::string>());
  }
  return urls;
}

}  // namespace

TEST_CASE("video: mp4 grid_clock clips with a mono audio track, two per request, decode as asked", "[e2e][video]") {
  // clang-format off
  CapturedRun run = run_captured({"--model", "m", "--endpoint-type", "chat", "--request-count", "2",
                                  "--num-dataset-entries", "2", "--isl", "5", "--osl", "2",
                                  "--video-width", "64", "--video-height", "48", "--video-fps", "4",
                                  "--video-duration", "1", "--video-synth-type", "grid_clock", "--video-format", "mp4",
                                  "--video-audio-num-channels", "1", "--video-audio-sample-rate", "16000",
                                  "--video-batch-size", "2"});
  // clang-format on
  check_clean(run, 2);
  REQUIRE(run.requests.size() == 2);
  std::set<std::string> distinct;
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/chat/completions");
    for (const std::string& url : video_urls(r.body, 2)) {
      distinct.insert(url);
      CHECK(probe(url, "stream=codec_name,width,height,r_frame_rate,sample_rate,channels:format=format_name",
                  "data:video/mp4;base64,") ==
            "codec_name=vp9\nwidth=64\nheight=48\nr_frame_rate=4/1\ncodec_name=opus\nsample_rate=48000\nchannels=1\n"
            "r_frame_rate=0/0\n"
            "format_name=mov,mp4,m4a,3gp,3g2,mj2\n");
      CHECK(probe(url, "stream=nb_frames", "data:video/mp4;base64,") == "nb_frames=4\nnb_frames=51\n");
    }
  }
  CHECK(distinct.size() == 4);  // an audio track of its own per clip, as AIPerf draws them
  // inputs.json holds the bodies that were sent.
  const json inputs = run.inputs();
  std::multiset<std::string> sent, written;
  for (const auto& r : run.requests) sent.insert(r.body.dump());
  for (const json& session : inputs["data"])
    for (const json& payload : session["payloads"]) written.insert(payload.dump());
  CHECK(sent == written);
}

TEST_CASE("video: the defaults send one webm moving_shapes clip per request, encoded once", "[e2e][video]") {
  CapturedRun run =
      run_captured({"--model", "m", "--endpoint-type", "chat", "--request-count", "3", "--num-dataset-entries", "3",
                    "--isl", "5", "--osl", "2", "--video-width", "32", "--video-height", "32"});
  check_clean(run, 3);
  std::set<std::string> distinct;
  for (const auto& r : run.requests)
    for (const std::string& url : video_urls(r.body, 1)) distinct.insert(url);
  REQUIRE(distinct.size() == 1);  // identical clips: one encode, one URL
  CHECK(probe(*distinct.begin(), "stream=codec_name,width,height,r_frame_rate:format=duration,format_name",
              "data:video/webm;base64,") ==
        "codec_name=vp9\nwidth=32\nheight=32\nr_frame_rate=4/1\nformat_name=matroska,webm\nduration=1.000000\n");
}

TEST_CASE("video: without ffmpeg on PATH the run exits 2 with AIPerf's message, nothing written", "[e2e][video]") {
  const std::string tmp = make_temp_dir();
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (tmp + "/empty").c_str(), 1);
  ProfileRun run;
  try {
    run = run_profile(tmp + "/artifacts",
                      {"--model", "m", "--ui-type", "none", "--url", "http://127.0.0.1:9", "--tokenizer", "gpt2",
                       "--request-count", "1", "--video-width", "16", "--video-height", "16"},
                      tmp, "aiperf", 60);
  } catch (...) {
    ::setenv("PATH", old_path.c_str(), 1);
    throw;
  }
  ::setenv("PATH", old_path.c_str(), 1);
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("Error: --video-width/--video-height: FFmpeg binary not found. Please install FFmpeg:\n\n"
                     "  Recommended: ") != std::string::npos);
  CHECK_FALSE(fs::exists(tmp + "/artifacts"));
}
