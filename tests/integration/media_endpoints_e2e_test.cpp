// End-to-end: --endpoint-type image_retrieval, image_edit and audio_transcription against
// aiperf-mock-server: the requests the mock received (JSON for /v1/infer, multipart/form-data
// with the file parts AIPerf 0.13 sends for the others), clean records, the request count, and
// the metrics the reference reports for each type (image metrics for image retrieval, ISL and
// usage for image edit, no token metrics for transcription).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "process.h"

using nlohmann::json;
using namespace aiperf::test;

namespace {

// aiperf (no UI, concurrency 1, seed 5, then `args`) against a fresh recording mock.
CapturedRun run_media(const std::vector<std::string>& args) {
  const std::string tmp = make_temp_dir();
  const std::string rec = tmp + "/requests.jsonl";
  MockServer mock({"--fast", "--record-requests", rec}, tmp);
  std::vector<std::string> full{"--model", "m", "--ui-type", "none", "--url", mock.url(), "--concurrency", "1",
                                "--random-seed", "5"};
  full.insert(full.end(), args.begin(), args.end());
  CapturedRun run{run_profile(tmp + "/artifacts", full, tmp, "aiperf", 120), {}};
  for (const auto& l : read_lines(rec)) {
    json j = json::parse(l);
    run.requests.push_back({j["path"].get<std::string>(), j["body"]});
  }
  return run;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("image_retrieval: NIM /v1/infer bodies, one image each, image throughput and latency",
          "[e2e][endpoint_types]") {
  CapturedRun run = run_media({"--endpoint-type", "image_retrieval", "--request-count", "3", "--image-width-mean",
                               "8", "--image-height-mean", "8", "--image-format", "png", "--image-batch-size", "2"});
  check_clean(run, 3);
  CHECK(has(run.out, "NVIDIA AIPerf | Image Retrieval Metrics"));
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/infer");
    REQUIRE(r.body.size() == 1);  // {"input": [...]} only
    REQUIRE(r.body["input"].size() == 2);
    for (const json& part : r.body["input"]) {
      CHECK(part.size() == 2);
      CHECK(part["type"] == "image_url");
      CHECK(part["url"].get<std::string>().rfind("data:image/png;base64,iVBORw0KGgo", 0) == 0);
    }
  }
  const json s = run.summary();
  CHECK(s["num_images"]["avg"] == 2);
  CHECK(s["num_images"]["unit"] == "images");
  CHECK(s["image_throughput"]["unit"] == "images/sec");
  CHECK(s["image_latency"]["unit"] == "ms/image");
  CHECK(s["image_latency"]["avg"].get<double>() == Approx(s["request_latency"]["avg"].get<double>() / 2));
  CHECK(s["image_throughput"]["avg"].get<double>() > 0);
  CHECK_FALSE(s.contains("input_sequence_length"));  // nothing is tokenized
  CHECK_FALSE(s.contains("output_sequence_length"));
  for (const json& rec : run.records()) {
    const json& m = rec["metrics"];
    CHECK(m["num_images"]["value"] == 2);
    CHECK(m["image_latency"]["value"].get<double>() == Approx(m["request_latency"]["value"].get<double>() / 2));
  }
}

TEST_CASE("image_edit: multipart prompt and PNG upload, ISL of the prompt, server usage",
          "[e2e][endpoint_types]") {
  CapturedRun run = run_media({"--endpoint-type", "image_edit", "--tokenizer", "gpt2", "--request-count", "2",
                               "--isl", "5", "--isl-stddev", "0", "--image-width-mean", "4", "--image-height-mean",
                               "4", "--image-format", "png", "--extra-inputs", "size:256x256",
                               // The body has no system prompt, so the ISL stays the prompt's.
                               "--shared-system-prompt-length", "7"});
  check_clean(run, 2);
  CHECK(has(run.out, "NVIDIA AIPerf | Image Edit Metrics"));
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/images/edits");
    REQUIRE(r.body.is_string());  // form data, recorded as text
    const std::string body = r.body;
    for (const char* part : {"Content-Disposition: form-data; name=\"prompt\"",
                             "name=\"model\"\r\n\r\nm\r\n", "name=\"response_format\"\r\n\r\nb64_json\r\n",
                             "name=\"n\"\r\n\r\n1\r\n", "name=\"size\"\r\n\r\n256x256\r\n",
                             "Content-Type: image/png\r\nContent-Disposition: form-data; name=\"image\"; filename=\"image.png\""})
      CHECK(has(body, part));
    CHECK(body.substr(body.size() - 4) == "--\r\n");
  }
  const json s = run.summary();
  CHECK(s["input_sequence_length"]["avg"] == 5);  // the prompt alone, not the 7-token system prompt
  CHECK(s["usage_prompt_tokens"]["avg"].get<double>() > 0);
  CHECK_FALSE(s.contains("num_images"));  // AIPerf counts no image part in this body
  CHECK_FALSE(s.contains("output_sequence_length"));
  // The payload in inputs.json keeps the file as AIPerf writes it.
  const json payload = run.inputs()["data"][0]["payloads"][0];
  CHECK(payload["image"]["filename"] == "image.png");
  CHECK(payload["image"]["content_type"] == "image/png");
  CHECK(payload["response_format"] == "b64_json");
}

TEST_CASE("audio_transcription: multipart WAV upload, transcripts, audio duration and RTFx, no tokenizer", "[e2e][endpoint_types]") {
  CapturedRun run = run_media({"--endpoint-type", "audio_transcription", "--request-count", "3",
                               "--audio-length-mean", "0.5", "--audio-format", "wav", "--audio-sample-rates", "16"});
  check_clean(run, 3);
  CHECK(has(run.out, "NVIDIA AIPerf | Audio Transcription Metrics"));
  for (const auto& r : run.requests) {
    CHECK(r.path == "/v1/audio/transcriptions");
    REQUIRE(r.body.is_string());
    const std::string body = r.body;
    CHECK(has(body, "Content-Type: audio/wav\r\nContent-Disposition: form-data; name=\"file\"; filename=\"audio.wav\""
                    "\r\n\r\nRIFF"));
    CHECK(has(body, "name=\"model\"\r\n\r\nm\r\n"));
  }
  const json s = run.summary();
  CHECK(s["request_count"]["avg"] == 3);
  // Synthetic clips of exactly 0.5 s (no stddev): audio_duration, and RTFx = 0.5 s / latency.
  CHECK(s["audio_duration"]["avg"] == 0.5);
  CHECK(s["audio_duration"]["unit"] == "sec");
  CHECK(s["rtfx"]["unit"] == "ratio");
  for (const json& rec : run.records()) {
    const json& m = rec["metrics"];
    CHECK(m["audio_duration"]["value"] == 0.5);
    CHECK(m["rtfx"]["value"].get<double>() == Approx(0.5 / (m["request_latency"]["value"].get<double>() / 1000)));
  }
  CHECK_FALSE(s.contains("input_sequence_length"));
  CHECK_FALSE(s.contains("output_sequence_length"));
  CHECK(run.inputs()["data"][0]["payloads"][0]["file"]["filename"] == "audio.wav");
}

TEST_CASE("chat with synthetic images and audio: num_images, image and audio metrics as AIPerf reports them",
          "[e2e][endpoint_types]") {
  CapturedRun run = run_media({"--endpoint-type", "chat", "--tokenizer", "gpt2", "--request-count", "2", "--isl", "5",
                               "--osl", "3", "--image-width-mean", "8", "--image-height-mean", "8", "--image-format",
                               "png", "--image-batch-size", "2", "--audio-length-mean", "0.2", "--audio-format", "wav"});
  check_clean(run, 2);
  for (const auto& r : run.requests) {
    int images = 0;
    for (const json& part : r.body["messages"][0]["content"]) images += part["type"] == "image_url";
    CHECK(images == 2);
  }
  const json s = run.summary();
  CHECK(s["num_images"]["avg"] == 2);
  CHECK(s["image_latency"]["avg"].get<double>() == Approx(s["request_latency"]["avg"].get<double>() / 2));
  CHECK(s["audio_duration"]["avg"] == 0.2);
  CHECK(s.contains("rtfx"));
  CHECK(s["output_sequence_length"]["avg"] == 3);
}

TEST_CASE("media endpoints: options AIPerf refuses for them exit 2", "[e2e][endpoint_types]") {
  const std::string tmp = make_temp_dir();
  ProfileRun tok = run_named(tmp, "tok", {"--endpoint-type", "audio_transcription", "--url", "http://127.0.0.1:9"});
  CHECK(tok.exit_code == 2);
  CHECK(has(tok.err + tok.out, "Tokenizer options (--tokenizer) cannot be used with --endpoint-type audio_transcription."));
  ProfileRun json_body = run_profile(tmp + "/json", {"--model", "m", "--endpoint-type", "image_edit", "--url",
                                                     "http://127.0.0.1:9", "--request-content-type", "application/json"},
                                     tmp, "json", 60);
  CHECK(json_body.exit_code == 2);
  CHECK(has(json_body.err + json_body.out,
            "--request-content-type: endpoint type image_edit requires multipart/form-data; application/json is not "
            "supported."));
}
