// POST /v1/infer, /v1/images/edits and /v1/audio/transcriptions through a real socket, with the
// multipart bodies AIPerf 0.13 sent (tests/data/multipart/*_ref.body), and the form-data reader.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "form_data.h"
#include "routes.h"
#include "scripted_apis.h"
#include "server_fixture.h"
#include "token_budget.h"
#include "test_files.h"

using namespace aiperf::mock;
using namespace aiperf::mock::test;
using nlohmann::json;

namespace {

// A file captured from AIPerf 0.13's requests (tests/data/multipart).
std::string capture_file(const std::string& name) {
  return aiperf::test::slurp(std::string(AIPERF_TEST_DATA) + "/multipart/" + name);
}

// The reference's captured request: Content-Type and body.
std::pair<std::string, std::string> captured(const std::string& name) {
  const json doc = json::parse(capture_file(name + "_ref.json"));
  return {doc["content_type"], capture_file(name + "_ref.body")};
}

Request form_post(const std::string& target, const std::string& content_type, std::string body) {
  Request r = post(target, std::move(body));
  r.set(boost::beast::http::field::content_type, content_type);
  return r;
}

// A 16-bit mono WAV of `samples` samples at `rate` Hz.
std::string wav(uint32_t rate, uint32_t samples) {
  auto le = [](uint32_t v, int bytes) {
    std::string s;
    for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    return s;
  };
  const uint32_t data = samples * 2;
  return "RIFF" + le(36 + data, 4) + "WAVE" + "fmt " + le(16, 4) + le(1, 2) + le(1, 2) + le(rate, 4) +
         le(rate * 2, 4) + le(2, 2) + le(16, 2) + "data" + le(data, 4) + std::string(data, '\0');
}

std::string one_file_form(const std::string& boundary, const std::string& bytes, const std::string& extra_field = "") {
  std::string body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                     "Content-Type: audio/wav\r\n\r\n" + bytes + "\r\n";
  if (!extra_field.empty())
    body += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"response_format\"\r\n\r\n" + extra_field + "\r\n";
  return body + "--" + boundary + "--\r\n";
}

}  // namespace

TEST_CASE("media routes: POST only") {
  using boost::beast::http::verb;
  CHECK(match_route(verb::post, "/v1/infer") == Route::image_retrieval);
  CHECK(match_route(verb::post, "/v1/images/edits") == Route::image_edits);
  CHECK(match_route(verb::post, "/v1/audio/transcriptions") == Route::audio_transcriptions);
  CHECK(match_route(verb::get, "/v1/infer") == Route::method_not_allowed);
}

TEST_CASE("form-data reader: the reference's image edit body, quoting, malformed bodies") {
  const auto [content_type, body] = captured("image_edit");
  const auto boundary = form_boundary(content_type);
  REQUIRE(boundary);
  CHECK(boundary->size() == 32);
  const auto parts = parse_form_data(body, *boundary);
  REQUIRE(parts);
  REQUIRE(parts->size() == 5);
  CHECK((*parts)[0].name == "prompt");
  CHECK((*parts)[0].content_type == "text/plain; charset=utf-8");
  CHECK((*parts)[3].name == "n");
  CHECK((*parts)[3].value == "1");
  const FormPart* image = find_part(*parts, "image");
  REQUIRE(image);
  CHECK(image->filename == "image.png");
  CHECK(image->content_type == "image/png");
  CHECK(image->value.substr(1, 3) == "PNG");
  CHECK(image->value.size() == 79);
  CHECK(form_boundary("multipart/form-data; boundary=\"a b\"") == "a b");
  CHECK_FALSE(form_boundary("application/json"));
  CHECK_FALSE(parse_form_data("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nv", "B"));  // unterminated
  CHECK_FALSE(parse_form_data("--B\r\nContent-Type: text/plain\r\n\r\nv\r\n--B--\r\n", "B"));     // no name
  const auto escaped = parse_form_data("--B\r\nContent-Disposition: form-data; name=\"a\\\"b\"\r\n\r\nv\r\n--B--\r\n", "B");
  REQUIRE(escaped);
  CHECK((*escaped)[0].name == "a\"b");
}

TEST_CASE("image retrieval: one detection per image, bad inputs refused") {
  ServerFixture fixture;
  const auto response = fixture.client().send(post(
      "/v1/infer", R"({"input":[{"type":"image_url","url":"data:image/png;base64,AA"},{"type":"image_url","url":"u"}]})"));
  REQUIRE(response.result_int() == 200);
  const json body = json::parse(response.body());
  REQUIRE(body["data"].size() == 2);
  CHECK(body["data"][1]["index"] == 1);
  CHECK(body["data"][1]["bounding_boxes"]["chart"][0]["confidence"] == 0.9);
  CHECK(fixture.client().send(post("/v1/infer", R"({"input":[]})")).result_int() == 400);
  CHECK(fixture.client().send(post("/v1/infer", R"({"input":[{"type":"text","text":"x"}]})")).result_int() == 400);
}

TEST_CASE("image edit: the reference's multipart request answered with an image and usage") {
  ServerFixture fixture;
  const auto [content_type, body] = captured("image_edit");
  const auto response = fixture.client().send(form_post("/v1/images/edits", content_type, body));
  REQUIRE(response.result_int() == 200);
  const json answer = json::parse(response.body());
  REQUIRE(answer["data"].size() == 1);
  CHECK(answer["data"][0]["b64_json"].get<std::string>().rfind("iVBORw0KGgo", 0) == 0);
  const json payload = json::parse(capture_file("image_edit_ref.json"))["payload"];
  const int prompt_tokens = count_prompt_tokens(payload["prompt"].get<std::string>());
  CHECK(answer["usage"]["input_tokens"] == prompt_tokens);
  CHECK(answer["usage"]["output_tokens"] == 272);
  CHECK(answer["usage"]["total_tokens"] == prompt_tokens + 272);
  // JSON instead of form data, or a form without an image, is a 400.
  CHECK(fixture.client().send(post("/v1/images/edits", R"({"prompt":"x"})")).result_int() == 400);
  const std::string no_image = "--B\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\np\r\n--B--\r\n";
  CHECK(fixture.client().send(form_post("/v1/images/edits", "multipart/form-data; boundary=B", no_image)).result_int() ==
        400);
}

TEST_CASE("audio transcription: transcript length follows the WAV's duration; json, text, verbose_json") {
  CHECK(wav_duration_seconds(wav(16000, 32000)) == 2.0);
  CHECK_FALSE(wav_duration_seconds("not a wav"));
  ServerFixture fixture;
  const auto [content_type, body] = captured("audio_transcription");
  const auto ref = fixture.client().send(form_post("/v1/audio/transcriptions", content_type, body));
  REQUIRE(ref.result_int() == 200);
  const json ref_answer = json::parse(ref.body());
  CHECK(spaces(ref_answer["text"]) == 0);  // 0.01 s: one word
  CHECK(ref_answer["usage"] == json{{"type", "duration"}, {"seconds", 1}});

  const std::string two_seconds = wav(16000, 32000);
  const auto j = fixture.client().send(form_post("/v1/audio/transcriptions", "multipart/form-data; boundary=X",
                                                 one_file_form("X", two_seconds)));
  CHECK(spaces(json::parse(j.body())["text"]) == 4);  // 5 words
  const auto text = fixture.client().send(form_post("/v1/audio/transcriptions", "multipart/form-data; boundary=X",
                                                    one_file_form("X", two_seconds, "text")));
  CHECK(text[boost::beast::http::field::content_type] == "text/plain; charset=utf-8");
  CHECK(spaces(text.body()) == 4);
  const auto verbose = json::parse(fixture.client()
                                       .send(form_post("/v1/audio/transcriptions", "multipart/form-data; boundary=X",
                                                       one_file_form("X", two_seconds, "verbose_json")))
                                       .body());
  CHECK(verbose["duration"] == 2.0);
  CHECK(verbose["task"] == "transcribe");
  CHECK(fixture.client()
            .send(form_post("/v1/audio/transcriptions", "multipart/form-data; boundary=X",
                            one_file_form("X", two_seconds, "srt")))
            .result_int() == 400);
  CHECK(fixture.client().send(post("/v1/audio/transcriptions", "{}")).result_int() == 400);
}
