// POST /v1/infer (NIM image retrieval), /v1/images/edits and /v1/audio/transcriptions (see
// scripted_apis.h). The latter two read multipart/form-data (form_data.h).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>

#include <nlohmann/json.hpp>

#include "form_data.h"
#include "scripted_apis.h"
#include "token_budget.h"

namespace aiperf::mock {

namespace {

using nlohmann::json;

constexpr int kEditSteps = 10;           // an edit takes ttft + 10 itl, like one generated image
constexpr int kTokensPerEditImage = 272;  // output tokens of one low-quality square image
constexpr double kWordsPerSecond = 2.5;   // transcript length per second of speech
constexpr int kMaxTranscriptWords = 4096;

uint32_t le32(std::string_view s, size_t at) {
  return static_cast<uint32_t>(static_cast<unsigned char>(s[at])) |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8 |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 2])) << 16 |
         static_cast<uint32_t>(static_cast<unsigned char>(s[at + 3])) << 24;
}

std::variant<std::vector<FormPart>, BadRequest> read_form(std::string_view content_type, std::string_view body) {
  auto boundary = form_boundary(content_type);
  if (!boundary) return BadRequest{"the request body must be multipart/form-data with a boundary"};
  auto parts = parse_form_data(body, *boundary);
  if (!parts) return BadRequest{"malformed multipart/form-data body"};
  return std::move(*parts);
}

}  // namespace

std::optional<double> wav_duration_seconds(std::string_view wav) {
  if (wav.size() < 12 || wav.substr(0, 4) != "RIFF" || wav.substr(8, 4) != "WAVE") return std::nullopt;
  uint32_t byte_rate = 0;
  for (size_t at = 12; at + 8 <= wav.size();) {
    const std::string_view id = wav.substr(at, 4);
    const uint32_t size = le32(wav, at + 4);
    if (id == "fmt " && at + 20 <= wav.size()) byte_rate = le32(wav, at + 16);
    if (id == "data") {
      if (byte_rate == 0) return std::nullopt;
      return static_cast<double>(size) / byte_rate;
    }
    at += 8 + size + (size & 1);
  }
  return std::nullopt;
}

ScriptedOrBad image_retrieval_reply(std::string_view body_text, const Pacing& pacing) {
  const json body = json::parse(body_text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) return BadRequest{"request body must be a JSON object"};
  const auto input = body.find("input");
  if (input == body.end() || !input->is_array() || input->empty())
    return BadRequest{"'input' must be a non-empty list of image_url parts"};
  json data = json::array();
  int index = 0;
  for (const json& part : *input) {
    if (!part.is_object() || part.value("type", "") != "image_url" || !part.contains("url") || !part["url"].is_string())
      return BadRequest{"each 'input' part must be {\"type\": \"image_url\", \"url\": string}"};
    // One detection per image, placed by its index so answers differ.
    const double offset = 0.05 * (index % 10);
    json box = {{"x_min", 0.1 + offset}, {"y_min", 0.2}, {"x_max", 0.5 + offset}, {"y_max", 0.6}, {"confidence", 0.9}};
    data.push_back({{"index", index}, {"bounding_boxes", {{"chart", json::array({box})}}}});
    ++index;
  }
  ScriptedReply reply;
  // Each image costs ttft, as a detector's forward pass per image.
  reply.pieces.push_back({pacing.ttft * index, json{{"data", std::move(data)}}.dump()});
  return reply;
}

ScriptedOrBad image_edit_reply(std::string_view content_type, std::string_view body, const Pacing& pacing) {
  auto form = read_form(content_type, body);
  if (auto* bad = std::get_if<BadRequest>(&form)) return *bad;
  const auto& parts = std::get<std::vector<FormPart>>(form);
  const FormPart* prompt = find_part(parts, "prompt");
  if (!prompt || prompt->filename) return BadRequest{"'prompt' must be a text field"};
  const FormPart* image = find_part(parts, "image");
  const FormPart* url = find_part(parts, "url");
  if (!(image && image->filename && !image->value.empty()) && !(url && !url->value.empty()))
    return BadRequest{"an 'image' file or a 'url' field is required"};
  int n = 1;
  if (const FormPart* n_part = find_part(parts, "n")) {
    try {
      n = std::stoi(n_part->value);
    } catch (...) {
      n = 0;
    }
    if (n < 1 || n > 10) return BadRequest{"'n' must be an integer from 1 to 10"};
  }
  const FormPart* format = find_part(parts, "response_format");
  const bool as_url = format && format->value == "url";
  const int prompt_tokens = count_prompt_tokens(prompt->value);
  const int64_t created = std::time(nullptr);
  json data = json::array();
  for (int k = 0; k < n; ++k) {
    if (as_url) data.push_back({{"url", "https://images.mock/edit-" + std::to_string(created) + "-" + std::to_string(k) + ".png"}});
    else data.push_back({{"b64_json", kPng1x1}});
  }
  const json usage = {{"total_tokens", prompt_tokens + n * kTokensPerEditImage},
                      {"input_tokens", prompt_tokens},
                      {"output_tokens", n * kTokensPerEditImage},
                      {"input_tokens_details", {{"text_tokens", prompt_tokens}, {"image_tokens", 0}}}};
  ScriptedReply reply;
  reply.prompt_tokens = prompt_tokens;
  reply.pieces.push_back({pacing.ttft + (kEditSteps * n - 1) * pacing.itl,
                          json{{"created", created}, {"data", std::move(data)}, {"usage", usage}}.dump()});
  return reply;
}

ScriptedOrBad transcription_reply(std::string_view content_type, std::string_view body, const TextPool& pool,
                                  const Pacing& pacing) {
  auto form = read_form(content_type, body);
  if (auto* bad = std::get_if<BadRequest>(&form)) return *bad;
  const auto& parts = std::get<std::vector<FormPart>>(form);
  const FormPart* file = find_part(parts, "file");
  if (!file || !file->filename || file->value.empty()) return BadRequest{"a non-empty 'file' upload is required"};
  const FormPart* format_part = find_part(parts, "response_format");
  const std::string format = format_part ? format_part->value : "json";
  if (format != "json" && format != "text" && format != "verbose_json")
    return BadRequest{"'response_format' must be json, text or verbose_json"};
  // WAV gives its length; other containers count as one second.
  const double seconds = wav_duration_seconds(file->value).value_or(1.0);
  const int words = std::clamp(static_cast<int>(std::ceil(seconds * kWordsPerSecond)), 1, kMaxTranscriptWords);
  std::string text;
  for (int i = 0; i < words; ++i) text += pool.piece(0, static_cast<size_t>(i));
  if (!text.empty() && text.front() == ' ') text.erase(0, 1);

  ScriptedReply reply;
  reply.output_tokens = words;
  const auto at = pacing.ttft + (words - 1) * pacing.itl;
  if (format == "text") {
    reply.content_type = "text/plain; charset=utf-8";
    reply.pieces.push_back({at, text});
    return reply;
  }
  json answer;
  if (format == "verbose_json") {
    answer = {{"task", "transcribe"}, {"language", "english"}, {"duration", seconds}, {"text", text}};
  } else {
    answer = {{"text", text}, {"usage", {{"type", "duration"}, {"seconds", static_cast<int>(std::ceil(seconds))}}}};
  }
  reply.pieces.push_back({at, answer.dump()});
  return reply;
}

}  // namespace aiperf::mock
