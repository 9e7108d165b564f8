// AIPerf 0.13's media endpoint types image_retrieval, image_edit and audio_transcription:
// payloads and multipart bodies byte for byte against what the reference sent to a capture
// server (tests/data/multipart/*_ref.{json,body}: its inputs.json payload, Content-Type and
// body), image counts, and response parsing.
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "endpoint_test_util.h"
#include "endpoints/endpoint.h"
#include "endpoints/multipart.h"
#include "test_files.h"

using namespace aiperf;
using namespace aiperf::endpoints::test;
using endpoints::find_endpoint;
using endpoints::parse_response;
using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// A request body captured from AIPerf 0.13 (tests/data/multipart).
std::string captured(const std::string& name) {
  return aiperf::test::slurp(std::string(AIPERF_TEST_DATA) + "/multipart/" + name);
}

struct RefCapture {
  ordered_json payload;      // the reference's inputs.json payload
  std::string content_type;  // its request Content-Type
  std::string boundary;
  std::string body;          // its request body
};

RefCapture ref(const std::string& name) {
  RefCapture r;
  const ordered_json doc = ordered_json::parse(captured(name + "_ref.json"));
  r.payload = doc["payload"];
  r.content_type = doc["content_type"];
  r.boundary = r.content_type.substr(r.content_type.find("boundary=") + 9);
  r.body = captured(name + "_ref.body");
  return r;
}

proto::Turn media_turn(std::vector<std::string> texts, std::vector<std::string> images,
                       std::vector<std::string> audios = {}) {
  proto::Turn turn;
  if (!texts.empty()) {
    auto* t = turn.add_texts();
    for (auto& c : texts) t->add_contents(c);
  }
  if (!images.empty()) {
    auto* i = turn.add_images();
    for (auto& c : images) i->add_contents(c);
  }
  if (!audios.empty()) {
    auto* a = turn.add_audios();
    for (auto& c : audios) a->add_contents(c);
  }
  return turn;
}

std::string build_m(const char* type, const proto::Turn& turn, const json* extras = nullptr) {
  endpoints::PayloadOptions o;
  o.model = "m";
  o.extra_inputs = extras;
  return endpoints::build_payload(*find_endpoint(type), o, {&turn}, "", "");
}

endpoints::ParseResult parse(const char* type, const std::string& content_type, const std::string& body) {
  return parse_response(*find_endpoint(type), record(content_type, {{100, body}}));
}

}  // namespace

TEST_CASE("media endpoint types: table rows as AIPerf 0.13's plugin metadata") {
  const auto* ir = find_endpoint("image_retrieval");
  REQUIRE(ir);
  CHECK(ir->path == "/v1/infer");
  CHECK(ir->metrics_title == "Image Retrieval Metrics");
  CHECK_FALSE(ir->supports_streaming);
  CHECK_FALSE(ir->tokenizes_input);
  CHECK_FALSE(ir->requires_form_data);
  CHECK(ir->supports_images);
  const auto* ie = find_endpoint("image_edit");
  REQUIRE(ie);
  CHECK(ie->path == "/v1/images/edits");
  CHECK(ie->metrics_title == "Image Edit Metrics");
  CHECK(ie->tokenizes_input);
  CHECK(ie->requires_form_data);
  const auto* at = find_endpoint("audio_transcription");
  REQUIRE(at);
  CHECK(at->path == "/v1/audio/transcriptions");
  CHECK(at->metrics_title == "Audio Transcription Metrics");
  CHECK_FALSE(at->tokenizes_input);
  CHECK_FALSE(at->produces_tokens);
  CHECK(at->requires_form_data);
  CHECK(at->supports_audio);
  CHECK(endpoints::build_url("http://h:1", *ir, "", false) == "http://h:1/v1/infer");
}

TEST_CASE("image_retrieval: the reference's body, extras merged, image count") {
  const proto::Turn turn = media_turn({"ignored"}, {"data:image/png;base64,AAAA", "", "https://x/y.png"});
  CHECK(build_m("image_retrieval", turn) ==
        R"({"input":[{"type":"image_url","url":"data:image/png;base64,AAAA"},{"type":"image_url","url":"https://x/y.png"}]})");
  const json extras = {{"threshold", 0.5}, {"input", "override"}};
  CHECK(build_m("image_retrieval", turn, &extras) == R"({"input":"override","threshold":0.5})");
  CHECK(endpoints::image_count(*find_endpoint("image_retrieval"), {&turn}) == 2);
  CHECK_FALSE(endpoints::image_count(*find_endpoint("image_edit"), {&turn}));
  CHECK_FALSE(endpoints::image_count(*find_endpoint("nim_embeddings"), {&turn}));
  // Chat-shaped bodies count every turn sent.
  const proto::Turn earlier = media_turn({"a"}, {"x"});
  CHECK(endpoints::image_count(*find_endpoint("chat"), {&earlier, &turn}) == 3);
  CHECK(endpoints::image_count(*find_endpoint("responses"), {&turn}) == 2);
  CHECK(endpoints::image_count(*find_endpoint("messages"), {&turn}) == 2);
  CHECK(endpoints::image_count(*find_endpoint("chat"), {&earlier}) == 1);
  proto::Turn raw = turn;
  raw.set_raw_payload("{}");
  CHECK_FALSE(endpoints::image_count(*find_endpoint("chat"), {&raw}));
  CHECK(find_endpoint("chat")->supports_images);
  CHECK(find_endpoint("chat")->supports_audio);
  CHECK_FALSE(find_endpoint("completions")->supports_images);
}

TEST_CASE("image_retrieval: refusals with AIPerf's reasons") {
  const proto::Turn no_image = media_turn({"a"}, {});
  CHECK_THROWS_WITH(build_m("image_retrieval", no_image), "Image Retrieval request requires at least one image.");
  const proto::Turn empty = media_turn({}, {"", ""});
  CHECK_THROWS_WITH(build_m("image_retrieval", empty),
                    "No valid image content found. All images have empty contents or empty content values.");
  const proto::Turn one = media_turn({}, {"x"});
  endpoints::PayloadOptions o;
  o.model = "m";
  CHECK_THROWS_WITH(endpoints::build_payload(*find_endpoint("image_retrieval"), o, {&one, &one}, "", ""),
                    "Image Retrieval endpoint only supports one turn.");
}

TEST_CASE("image_retrieval: responses with truthy data are content") {
  auto ok = parse("image_retrieval", "application/json",
                  R"({"data":[{"index":0,"bounding_boxes":{"chart":[]}}],"usage":{"images_size_mb":0.1}})");
  REQUIRE_FALSE(ok.error);
  REQUIRE(ok.responses.size() == 1);
  CHECK(ok.responses[0].perf_ns == 100);
  CHECK(ok.responses[0].text.empty());
  for (const char* body : {R"({"data":[]})", R"({"data":null})", R"({"data":0})", R"({"other":1})", "[1]"}) {
    auto none = parse("image_retrieval", "application/json", body);
    REQUIRE(none.error);
    CHECK(none.error->type() == "InvalidInferenceResultError");
  }
  CHECK(parse("image_retrieval", "application/json", R"({"data":"x"})").responses.size() == 1);
}

TEST_CASE("image_edit: the reference's payload and multipart body byte for byte") {
  const RefCapture r = ref("image_edit");
  const std::string b64 = r.payload["image"]["b64_data"];
  const proto::Turn turn = media_turn({r.payload["prompt"].get<std::string>()}, {"data:image/png;base64," + b64});
  const std::string payload = build_m("image_edit", turn);
  CHECK(payload == r.payload.dump());
  const endpoints::WireBody wire = endpoints::wire_body(*find_endpoint("image_edit"), payload, r.boundary);
  CHECK(wire.content_type == r.content_type);
  CHECK(wire.body == r.body);
  CHECK(wire.body.size() == 801);
  // Without a data URL the type is sniffed from the base64 (PNG magic), the same field results.
  CHECK(build_m("image_edit", media_turn({r.payload["prompt"].get<std::string>()}, {b64})) == payload);
}

TEST_CASE("image_edit: url images, sniffed types, reserved extras, refusals") {
  const json extras = {{"prompt", "no"}, {"mask", "no"}, {"size", "512x512"}, {"n", 2}};
  CHECK(build_m("image_edit", media_turn({"p"}, {"HTTPS://h/i.png"}), &extras) ==
        R"({"prompt":"p","model":"m","response_format":"b64_json","n":2,"url":"HTTPS://h/i.png","size":"512x512"})");
  const auto field = [](const std::string& image) {
    return json::parse(build_m("image_edit", media_turn({"p"}, {image})))["image"];
  };
  CHECK(field("/9j/4AAQ")["filename"] == "image.jpg");
  CHECK(field("/9j/4AAQ")["content_type"] == "image/jpeg");
  CHECK(field("R0lGODlhAQ==")["content_type"] == "image/gif");
  CHECK(field("UklGRg==")["filename"] == "image.webp");
  CHECK(field("Qk0=")["filename"] == "image.bmp");
  CHECK(field("data:image/svg+xml;base64,PHN2Zz4=")["filename"] == "image.svg");
  CHECK(field("data:image/svg+xml;base64,PHN2Zz4=")["content_type"] == "image/svg+xml");
  CHECK(field("data:image/jpeg;base64,AAAA")["b64_data"] == "AAAA");
  // A non-image claim falls back to sniffing.
  CHECK(field("data:text/html;base64,iVBORw0KGgo=")["content_type"] == "image/png");
  CHECK_THROWS_WITH(build_m("image_edit", media_turn({"p"}, {"AAAA"})),
                    "Image content is not a recognized image format; expected a data URL or raw base64 image "
                    "(PNG/JPEG/WebP/GIF/BMP).");
  CHECK_THROWS_WITH(build_m("image_edit", media_turn({"p"}, {"data:image/png;base64"})),
                    "Malformed data URL for image content (missing comma).");
  CHECK_THROWS_WITH(build_m("image_edit", media_turn({}, {"AAAA"})), "Image edit endpoint requires a text prompt.");
  CHECK_THROWS_WITH(build_m("image_edit", media_turn({"p"}, {})),
                    "Image edit endpoint requires a reference image in turn.images[0].");
  CHECK_THROWS_WITH(build_m("image_edit", media_turn({"p"}, {""})), "Reference image content is empty.");
}

TEST_CASE("image_edit: the ISL text is the prompt alone, as the body carries it") {
  proto::Turn turn = media_turn({"first", "second"}, {"AAAA"});
  turn.add_texts()->add_contents("third");
  const auto& edit = *find_endpoint("image_edit");
  CHECK(endpoints::input_text_for(edit, {&turn}, "system", "context") == "first");
  CHECK(endpoints::input_text_for(*find_endpoint("chat"), {&turn}, "system", "context") ==
        "system context firstsecond third");
  CHECK(endpoints::input_text_for(edit, {&turn}, "", "") != endpoints::input_text({&turn}, "", ""));
}

TEST_CASE("image_edit: any non-empty object is content, usage read") {
  auto ok = parse("image_edit", "application/json",
                  R"({"created":1,"data":[{"b64_json":"iVBORw0KGgo="}],"usage":{"input_tokens":5,"output_tokens":7,"total_tokens":12}})");
  REQUIRE_FALSE(ok.error);
  REQUIRE(ok.responses.size() == 1);
  REQUIRE(ok.usage);
  CHECK(ok.usage->prompt_tokens == 5);
  CHECK(ok.usage->completion_tokens == 7);
  CHECK(ok.usage->total_tokens == 12);
  CHECK(parse("image_edit", "application/json", R"({"data":[]})").responses.size() == 1);
  CHECK(parse("image_edit", "application/json", "{}").error->type() == "InvalidInferenceResultError");
  CHECK(parse("image_edit", "application/json", "not json").error->type() == "JSONDecodeError");
}

TEST_CASE("audio_transcription: the reference's payload and multipart body byte for byte") {
  const RefCapture r = ref("audio_transcription");
  const std::string b64 = r.payload["file"]["b64_data"];
  const proto::Turn turn = media_turn({}, {}, {"wav," + b64});
  const std::string payload = build_m("audio_transcription", turn);
  CHECK(payload == r.payload.dump());
  const endpoints::WireBody wire = endpoints::wire_body(*find_endpoint("audio_transcription"), payload, r.boundary);
  CHECK(wire.content_type == r.content_type);
  CHECK(wire.body == r.body);
  CHECK(wire.body.size() == 502);
}

TEST_CASE("audio_transcription: formats, reserved extras, refusals") {
  const json extras = {{"file", "no"}, {"language", "en"}, {"temperature", 0}};
  CHECK(build_m("audio_transcription", media_turn({}, {}, {"MP3,AAAA"}), &extras) ==
        R"({"file":{"b64_data":"AAAA","filename":"audio.mp3","content_type":"audio/mpeg"},"model":"m","language":"en","temperature":0})");
  CHECK(json::parse(build_m("audio_transcription", media_turn({}, {}, {"aiff,AAAA"})))["file"]["content_type"] ==
        "audio/aiff");
  CHECK(json::parse(build_m("audio_transcription", media_turn({}, {}, {"m4a,AAAA"})))["file"]["content_type"] ==
        "audio/mp4");
  CHECK_THROWS_WITH(build_m("audio_transcription", media_turn({"t"}, {})),
                    "Audio transcription endpoint requires audio in turn.audios[0].");
  CHECK_THROWS_WITH(build_m("audio_transcription", media_turn({}, {}, {""})), "Audio content is empty.");
  CHECK_THROWS_WITH(build_m("audio_transcription", media_turn({}, {}, {"AAAA"})),
                    "audio content must be in the format '<fmt>,<b64>' (got 'AAAA'); expected e.g. 'wav,<base64>'");
}

TEST_CASE("audio_transcription: JSON text, plain-text bodies, usage") {
  auto j = parse("audio_transcription", "application/json",
                 R"({"text":"hello world","usage":{"type":"duration","seconds":2}})");
  REQUIRE_FALSE(j.error);
  REQUIRE(j.responses.size() == 1);
  CHECK(j.responses[0].text == "hello world");
  auto plain = parse("audio_transcription", "text/plain", "1\n00:00:00,000 --> 00:00:01,000\nhello\n");
  REQUIRE(plain.responses.size() == 1);
  CHECK(plain.responses[0].text == "1\n00:00:00,000 --> 00:00:01,000\nhello\n");
  // A JSON null is not a transcript object: the body itself is the text, as AIPerf reads it.
  CHECK(parse("audio_transcription", "application/json", "null").responses[0].text == "null");
  CHECK(parse("audio_transcription", "application/json", R"({"text":""})").error->type() ==
        "InvalidInferenceResultError");
  CHECK(parse("audio_transcription", "application/json", "{}").error->type() == "InvalidInferenceResultError");
}

TEST_CASE("multipart writer: parts, escaping, file defaults, JSON field values") {
  std::vector<endpoints::FormField> fields = {
      {"a\"b", "v1", std::nullopt, ""},
      {"f", std::string("\x00\x01", 2), std::string("my file.bin"), ""},
  };
  CHECK(endpoints::multipart_body(fields, "B") ==
        std::string("--B\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: form-data; name=\"a\\\"b\"\r\n\r\nv1\r\n"
                    "--B\r\nContent-Type: application/octet-stream\r\nContent-Disposition: form-data; name=\"f\"; "
                    "filename=\"my%20file.bin\"\r\n\r\n\x00\x01\r\n--B--\r\n",
                    223));
  CHECK(endpoints::multipart_body({}, "B") == "--B--\r\n");
  const ordered_json payload = ordered_json::parse(
      R"({"s":"x","n":2,"f":0.5,"t":true,"z":null,"o":{"k":1},"file":{"b64_data":"aGk="}})");
  const auto parsed = endpoints::form_fields(payload);
  REQUIRE(parsed.size() == 6);
  CHECK(parsed[0].value == "x");
  CHECK(parsed[1].value == "2");
  CHECK(parsed[2].value == "0.5");
  CHECK(parsed[3].value == "true");
  CHECK(parsed[4].name == "o");
  CHECK(parsed[4].value == R"({"k":1})");
  CHECK(parsed[5].value == "hi");
  CHECK(parsed[5].filename == "file");
  CHECK_THROWS_WITH(endpoints::form_fields(ordered_json::parse(R"({"image":{"b64_data":"!!"}})")),
                    "Field 'image': 'b64_data' is not valid base64.");
  // JSON endpoint types send the payload unchanged.
  const auto json_wire = endpoints::wire_body(*find_endpoint("chat"), R"({"a":1})", "");
  CHECK(json_wire.content_type == "application/json");
  CHECK(json_wire.body == R"({"a":1})");
}
