// video_generation (AIPerf 0.13): the body (and its multipart form, byte for byte as the
// reference sent it to a capture server), the job response rules of the submit-then-poll flow,
// the parsing of a job's record and the two video metrics.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoint_test_util.h"
#include "endpoints/endpoint.h"
#include "endpoints/metric_context_for.h"
#include "endpoints/video_generation.h"
#include "metrics/metric_context.h"
#include "metrics/metric_units.h"
#include "metrics/types/builtin_metrics.h"

using namespace aiperf;
using namespace aiperf::endpoints;
using nlohmann::json;

namespace {

proto::Turn text_turn(const std::string& text) {
  proto::Turn t;
  t.add_texts()->add_contents(text);
  return t;
}

template <class T>
const VideoJobError& error_of(const T& v) {
  REQUIRE(std::holds_alternative<VideoJobError>(v));
  return std::get<VideoJobError>(v);
}

}  // namespace

TEST_CASE("video_generation: endpoint row as AIPerf's plugin metadata", "[video]") {
  const EndpointInfo* info = find_endpoint("video_generation");
  REQUIRE(info);
  CHECK(info->path == "/v1/videos");
  CHECK(info->metrics_title == "Video Generation Metrics");
  CHECK_FALSE(info->supports_streaming);
  CHECK_FALSE(info->produces_tokens);
  CHECK(info->tokenizes_input);
  CHECK(info->requires_form_data);
  CHECK(info->requires_polling);
  CHECK(info->produces_videos);
  CHECK(build_url("http://h:8000", *info, "", false) == "http://h:8000/v1/videos");
}

TEST_CASE("video_generation: body is prompt / model / then extras / sent as AIPerf's multipart form", "[video]") {
  const proto::Turn turn = text_turn(" commended to his goodness The model of");
  const json extras = {{"size", "64x64"}};
  const std::string payload = test::build("video_generation", {&turn}, false, &extras);
  CHECK(payload == R"({"prompt":" commended to his goodness The model of","model":"m1","size":"64x64"})");
  // The reference's body for the same payload (model "m"), captured from AIPerf 0.13.
  const std::string ref_payload = R"({"prompt":" commended to his goodness The model of","model":"m","size":"64x64"})";
  const WireBody wire = wire_body(*find_endpoint("video_generation"), ref_payload, "d082c72a23c5477aba8934f32ba195f4");
  CHECK(wire.content_type == "multipart/form-data; boundary=d082c72a23c5477aba8934f32ba195f4");
  CHECK(wire.body ==
        "--d082c72a23c5477aba8934f32ba195f4\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: "
        "form-data; name=\"prompt\"\r\n\r\n commended to his goodness The model of\r\n"
        "--d082c72a23c5477aba8934f32ba195f4\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: "
        "form-data; name=\"model\"\r\n\r\nm\r\n"
        "--d082c72a23c5477aba8934f32ba195f4\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: "
        "form-data; name=\"size\"\r\n\r\n64x64\r\n--d082c72a23c5477aba8934f32ba195f4--\r\n");
}

TEST_CASE("video_generation: extras override prompt and model / the turn's model wins over the run's", "[video]") {
  proto::Turn turn = text_turn("a cat");
  turn.set_model("wan");
  const json extras = {{"seconds", 4}, {"model", "x"}};
  CHECK(test::build("video_generation", {&turn}, false, &extras) == R"({"prompt":"a cat","model":"x","seconds":4})");
  CHECK(test::build("video_generation", {&turn}) == R"({"prompt":"a cat","model":"wan"})");
}

TEST_CASE("video_generation: a turn without a prompt is refused with AIPerf's message", "[video]") {
  proto::Turn empty;
  empty.add_images()->add_contents("data:image/png;base64,AA==");
  CHECK_THROWS_WITH(test::build("video_generation", {&empty}), "Video generation endpoint requires a text prompt.");
  CHECK_THROWS_WITH(test::build("video_generation", {}), "Video generation endpoint requires at least one turn.");
}

TEST_CASE("video jobs: the submit answer gives the job id", "[video]") {
  auto ok = read_video_submit(R"({"id":"video_7","object":"video","status":"queued"})", 200);
  REQUIRE(std::holds_alternative<std::string>(ok));
  CHECK(std::get<std::string>(ok) == "video_7");
  CHECK(error_of(read_video_submit(R"({"status":"queued","progress":0,"x":null,"y":true,"z":"it's"})", 200)) ==
        VideoJobError{500, "VideoGenerationError",
                      R"(No job ID returned: {'status': 'queued', 'progress': 0, 'x': None, 'y': True, 'z': "it's"})"});
  CHECK(error_of(read_video_submit(R"({"id":""})", 200)).message == "No job ID returned: {'id': ''}");
  CHECK(error_of(read_video_submit("not json", 202)) ==
        VideoJobError{500, "VideoGenerationError", "Invalid JSON in video submit response (status 202): not json"});
  CHECK(error_of(read_video_submit("", 200)).message == "Invalid JSON in video submit response (status 200): <empty>");
  CHECK(error_of(read_video_submit(std::string(300, 'x'), 200)).message ==
        "Invalid JSON in video submit response (status 200): " + std::string(200, 'x'));
}

TEST_CASE("video jobs: poll answers", "[video]") {
  using State = VideoPoll::State;
  auto pending = read_video_poll(R"({"id":"v","status":"in_progress","progress":50})", 200);
  REQUIRE(std::holds_alternative<VideoPoll>(pending));
  CHECK(std::get<VideoPoll>(pending).state == State::kPending);
  CHECK(std::get<VideoPoll>(read_video_poll(R"({"status":"queued"})", 200)).state == State::kPending);
  CHECK(std::get<VideoPoll>(read_video_poll(R"({"id":"v"})", 200)).state == State::kPending);
  auto done = read_video_poll(R"({"status":"COMPLETED","url":"http://cdn/v.mp4"})", 200);
  REQUIRE(std::holds_alternative<VideoPoll>(done));
  CHECK(std::get<VideoPoll>(done).state == State::kCompleted);
  CHECK(std::get<VideoPoll>(done).url == "http://cdn/v.mp4");
  CHECK(std::get<VideoPoll>(read_video_poll(R"({"status":"completed","url":null})", 200)).url.empty());
  CHECK(error_of(read_video_poll(R"({"status":"failed","error":{"code":"x","message":"boom"}})", 200)) ==
        VideoJobError{500, "VideoGenerationError", "Video generation failed: boom"});
  CHECK(error_of(read_video_poll(R"({"status":"failed","error":{"code":"x"}})", 200)).message ==
        "Video generation failed: Unknown error");
  CHECK(error_of(read_video_poll(R"({"status":"failed"})", 200)).message == "Video generation failed: Unknown error");
  CHECK(error_of(read_video_poll(R"({"status":"failed","error":"out of memory"})", 200)).message ==
        "Video generation failed: out of memory");
  CHECK(error_of(read_video_poll(R"({"status":"failed","error":null})", 200)).message ==
        "Video generation failed: None");
  CHECK(error_of(read_video_poll("<html>", 200)).message == "Invalid JSON in video poll response (status 200): <html>");
}

TEST_CASE("video jobs: poll / content URLs and the timeout and download errors", "[video]") {
  CHECK(video_poll_url("http://h/v1/videos", "video_1") == "http://h/v1/videos/video_1");
  CHECK(video_poll_url("http://h/v1/videos//", "video_1") == "http://h/v1/videos/video_1");
  CHECK(video_poll_url("http://h/v1/videos?api-version=1", "v") == "http://h/v1/videos/v?api-version=1");
  CHECK(video_content_url("http://h/v1/videos/v", "") == "http://h/v1/videos/v/content");
  CHECK(video_content_url("http://h/v1/videos/v?a=1", "") == "http://h/v1/videos/v/content?a=1");
  CHECK(video_content_url("http://h/v1/videos/v", "http://cdn/x.mp4") == "http://cdn/x.mp4");
  CHECK(video_timeout_error(21600) == VideoJobError{504, "TimeoutError", "Video generation timed out after 21600.0s"});
  CHECK(video_timeout_error(0.5).message == "Video generation timed out after 0.5s");
  CHECK(video_timeout_error(2.25).message == "Video generation timed out after 2.25s");
  CHECK_FALSE(check_video_download("video/mp4", "v"));
  CHECK_FALSE(check_video_download("application/octet-stream", "v"));
  CHECK_FALSE(check_video_download("image/gif", "v"));
  CHECK(check_video_download("application/json", "video_3") ==
        VideoJobError{500, "VideoDownloadError", "No content returned for video video_3"});
}

TEST_CASE("video_generation: a job's record is the submit answer then the completed job", "[video]") {
  const proto::RawRecord raw = test::record(
      "application/json",
      {{10, R"({"id":"video_1","object":"video","status":"queued","progress":0})"},
       {50, R"({"id":"video_1","status":"completed","inference_time_s":1.5,"peak_memory_mb":2048.0,"usage":{"prompt_tokens":3}})"}});
  const ParseResult r = parse_response(*find_endpoint("video_generation"), raw);
  REQUIRE_FALSE(r.error);
  REQUIRE(r.responses.size() == 2);
  CHECK(r.responses[0].perf_ns == 10);
  CHECK(r.responses[1].perf_ns == 50);
  CHECK(r.responses[1].text.empty());
  CHECK(r.video_inference_time_s == 1.5);
  CHECK(r.video_peak_memory_mb == 2048.0);
  REQUIRE(r.usage);
  CHECK(r.usage->prompt_tokens == 3);
}

TEST_CASE("video_generation: no server figures / no metric values / an empty object is no content", "[video]") {
  const proto::RawRecord raw = test::record("application/json", {{10, R"({"id":"v"})"}, {20, "{}"}});
  const ParseResult r = parse_response(*find_endpoint("video_generation"), raw);
  REQUIRE_FALSE(r.error);
  CHECK(r.responses.size() == 1);
  CHECK_FALSE(r.video_inference_time_s);
  CHECK_FALSE(r.video_peak_memory_mb);
  const ParseResult none = parse_response(*find_endpoint("video_generation"), test::record("application/json", {{5, "{}"}}));
  REQUIRE(none.error);
  CHECK(none.error->type() == "InvalidInferenceResultError");
}

TEST_CASE("video metrics: tags / units / order and values as AIPerf's", "[video]") {
  const metrics::MetricDescriptor time = metrics::types::video_inference_time();
  const metrics::MetricDescriptor memory = metrics::types::video_peak_memory();
  CHECK(time.tag == "video_inference_time");
  CHECK(time.header == "Video Inference Time");
  CHECK(time.unit == "sec");
  CHECK(time.display_unit == "ms");
  CHECK(time.display_order == 310);
  CHECK(memory.tag == "video_peak_memory");
  CHECK(memory.header == "Video Peak Memory");
  CHECK(memory.unit == "MB");
  CHECK(memory.display_order == 311);
  CHECK(metrics::units::convert(1.5, time.unit, time.display_unit) == 1500.0);
  metrics::ParsedRecord r;
  const metrics::RecordValues none;
  CHECK_FALSE(time.record(r, none));
  r.video_inference_time_s = 0.5;
  r.video_peak_memory_mb = 900.0;
  CHECK(time.record(r, none) == 0.5);
  CHECK(memory.record(r, none) == 900.0);

  config::RunConfig cfg;
  const metrics::MetricContext video = metric_context_for(cfg, *find_endpoint("video_generation"));
  CHECK(metrics::flags_applicable(time.flags, video));
  CHECK_FALSE(video.http_trace);  // a job's record spans several requests: no HTTP phases, as AIPerf
  const metrics::MetricContext chat = metric_context_for(cfg, *find_endpoint("chat"));
  CHECK_FALSE(metrics::flags_applicable(time.flags, chat));
  CHECK_FALSE(metrics::flags_applicable(memory.flags, metric_context_for(cfg, *find_endpoint("image_edit"))));
}

TEST_CASE("video_generation: ISL counts the prompt only / as AIPerf tokenizes the payload's prompt", "[video]") {
  proto::Turn turn;
  auto* batch = turn.add_texts();
  batch->add_contents("a red fox");
  batch->add_contents("ignored second text");
  turn.add_texts()->add_contents("another batch");
  const EndpointInfo& video = *find_endpoint("video_generation");
  CHECK(input_text_for(video, {&turn}, "system prompt", "user context") == "a red fox");
  CHECK(input_text_for(*find_endpoint("chat"), {&turn}, "", "") != "a red fox");
}
