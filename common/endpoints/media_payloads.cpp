// Request bodies of AIPerf 0.13's media endpoints: image_retrieval (NIM /v1/infer, JSON),
// image_edit and audio_transcription (form data: files stay base64 in the JSON form, which is
// what inputs.json shows, and wire_body decodes them into multipart parts).
#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>
#include <utility>

#include "endpoints/endpoint.h"
#include "endpoints/payload_builders.h"

namespace aiperf::endpoints {

namespace {

using nlohmann::ordered_json;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The first content of the first batch, or nullptr when there is none (AIPerf reads [0][0]).
const std::string* first_content(const google::protobuf::RepeatedPtrField<proto::Text>& batches) {
  if (batches.empty() || batches[0].contents().empty()) return nullptr;
  return &batches[0].contents(0);
}

// Extras merged as dict.update, skipping the keys the endpoint manages itself (AIPerf warns and
// ignores them).
void merge_unreserved(ordered_json& payload, const nlohmann::json* extra_inputs,
                      std::initializer_list<std::string_view> reserved) {
  if (!extra_inputs || !extra_inputs->is_object()) return;
  for (const auto& [key, value] : extra_inputs->items()) {
    if (std::find(reserved.begin(), reserved.end(), key) != reserved.end()) continue;
    payload[key] = value;
  }
}

// MIME type implied by a base64 image's leading characters (its magic bytes), empty if none.
std::string sniff_image_mime(std::string_view b64) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kPrefixes = {{
      {"iVBORw0KGgo", "image/png"},
      {"/9j/", "image/jpeg"},
      {"R0lGODlh", "image/gif"},
      {"R0lGODdh", "image/gif"},
      {"UklGR", "image/webp"},
      {"Qk", "image/bmp"},
  }};
  for (const auto& [prefix, mime] : kPrefixes) {
    if (starts_with(b64, prefix)) return std::string(mime);
  }
  return "";
}

ordered_json image_file_field(const std::string& content) {
  std::string b64 = content;
  std::string mime;
  if (starts_with(content, "data:")) {
    const size_t comma = content.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("Malformed data URL for image content (missing comma).");
    const std::string header = content.substr(0, comma);
    b64 = content.substr(comma + 1);
    if (const size_t semi = header.find(';'); semi != std::string::npos) {
      const std::string claimed = header.substr(5, semi - 5);
      if (starts_with(claimed, "image/")) mime = claimed;  // only image/* claims are honoured
    }
  }
  if (mime.empty()) mime = sniff_image_mime(b64);
  if (mime.empty())
    throw std::invalid_argument(
        "Image content is not a recognized image format; expected a data URL or raw base64 image "
        "(PNG/JPEG/WebP/GIF/BMP).");
  std::string ext = mime.substr(mime.find('/') + 1);
  ext = ext.substr(0, ext.find('+'));  // svg+xml -> svg
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kMimeByExt = {{
      {"png", "image/png"}, {"jpg", "image/jpeg"}, {"jpeg", "image/jpeg"},
      {"webp", "image/webp"}, {"gif", "image/gif"}, {"bmp", "image/bmp"},
  }};
  std::string content_type = mime;
  for (const auto& [e, m] : kMimeByExt) {
    if (e == ext) content_type = m;
  }
  ordered_json field;
  field["b64_data"] = b64;
  field["filename"] = "image." + (ext == "jpeg" ? std::string("jpg") : ext);
  field["content_type"] = content_type;
  return field;
}

}  // namespace

ordered_json image_retrieval_payload(const std::vector<const proto::Turn*>& turns) {
  if (turns.size() != 1) throw std::invalid_argument("Image Retrieval endpoint only supports one turn.");
  const proto::Turn& turn = *turns.front();
  if (turn.images().empty()) throw std::invalid_argument("Image Retrieval request requires at least one image.");
  ordered_json input = ordered_json::array();
  for (const auto& batch : turn.images()) {
    for (const std::string& content : batch.contents()) {
      if (content.empty()) continue;
      ordered_json part;
      part["type"] = "image_url";
      part["url"] = content;
      input.push_back(std::move(part));
    }
  }
  if (input.empty())
    throw std::invalid_argument(
        "No valid image content found. All images have empty contents or empty content values.");
  ordered_json payload;
  payload["input"] = std::move(input);
  return payload;
}

ordered_json image_edit_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                const nlohmann::json* extra_inputs) {
  if (turns.empty()) throw std::invalid_argument("Image edit endpoint requires at least one turn.");
  const proto::Turn& turn = *turns.back();
  const std::string* prompt = first_content(turn.texts());
  if (!prompt) throw std::invalid_argument("Image edit endpoint requires a text prompt.");
  const std::string* image = first_content(turn.images());
  if (!image) throw std::invalid_argument("Image edit endpoint requires a reference image in turn.images[0].");
  if (image->empty()) throw std::invalid_argument("Reference image content is empty.");
  ordered_json payload;
  payload["prompt"] = *prompt;
  payload["model"] = model;
  payload["response_format"] = "b64_json";
  payload["n"] = 1;
  const std::string scheme = lower(image->substr(0, 8));
  if (starts_with(scheme, "http://") || starts_with(scheme, "https://")) {
    payload["url"] = *image;
  } else {
    payload["image"] = image_file_field(*image);
  }
  merge_unreserved(payload, extra_inputs, {"prompt", "image", "url", "mask"});
  return payload;
}

ordered_json audio_transcription_payload(const std::vector<const proto::Turn*>& turns, const std::string& model,
                                         const nlohmann::json* extra_inputs) {
  if (turns.empty()) throw std::invalid_argument("Audio transcription endpoint requires at least one turn.");
  const std::string* audio = first_content(turns.back()->audios());
  if (!audio) throw std::invalid_argument("Audio transcription endpoint requires audio in turn.audios[0].");
  if (audio->empty()) throw std::invalid_argument("Audio content is empty.");
  const size_t comma = audio->find(',');
  if (comma == std::string::npos)
    throw std::invalid_argument("audio content must be in the format '<fmt>,<b64>' (got '" + audio->substr(0, 40) +
                                "'); expected e.g. 'wav,<base64>'");
  const std::string fmt = lower(audio->substr(0, comma));
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kMimeByFormat = {{
      {"wav", "audio/wav"}, {"mp3", "audio/mpeg"}, {"mpga", "audio/mpeg"},
      {"mpeg", "audio/mpeg"}, {"flac", "audio/flac"}, {"ogg", "audio/ogg"},
      {"m4a", "audio/mp4"}, {"mp4", "audio/mp4"}, {"webm", "audio/webm"},
  }};
  std::string mime = "audio/" + fmt;
  for (const auto& [f, m] : kMimeByFormat) {
    if (f == fmt) mime = m;
  }
  ordered_json file;
  file["b64_data"] = audio->substr(comma + 1);
  file["filename"] = "audio." + fmt;
  file["content_type"] = mime;
  ordered_json payload;
  payload["file"] = std::move(file);
  payload["model"] = model;
  merge_unreserved(payload, extra_inputs, {"file"});
  return payload;
}

}  // namespace aiperf::endpoints

namespace aiperf::endpoints {

namespace {
int64_t non_empty_images(const proto::Turn& turn) {
  int64_t count = 0;
  for (const auto& batch : turn.images()) {
    for (const std::string& content : batch.contents()) count += content.empty() ? 0 : 1;
  }
  return count;
}
}  // namespace

std::string input_text_for(const EndpointInfo& info, const std::vector<const proto::Turn*>& turns,
                           const std::string& system_message, const std::string& user_context_message) {
  // image_edit and video_generation send only their prompt, which is all AIPerf tokenizes (the
  // payload's "prompt").
  if ((info.type == "image_edit" || info.type == "video_generation") && !turns.empty() &&
      turns.back()->raw_payload().empty()) {
    const proto::Turn& last = *turns.back();
    return last.texts().empty() || last.texts(0).contents().empty() ? std::string() : last.texts(0).contents(0);
  }
  return input_text(turns, system_message, user_context_message);
}

std::optional<int64_t> image_count(const EndpointInfo& info, const std::vector<const proto::Turn*>& turns) {
  if (turns.empty()) return std::nullopt;
  if (info.type == "image_retrieval") return non_empty_images(*turns.back());
  // Chat-shaped bodies: one image part per non-empty image of every turn sent, history included.
  // Verbatim bodies and trace messages are not walked.
  if (info.chat_messages) {
    if (!turns.back()->raw_payload().empty() || !turns.back()->raw_messages().empty()) return std::nullopt;
    int64_t count = 0;
    for (const proto::Turn* turn : turns) count += non_empty_images(*turn);
    return count;
  }
  return std::nullopt;
}

}  // namespace aiperf::endpoints
