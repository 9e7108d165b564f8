// POST /v1/images/generations (see scripted_apis.h).
#include <algorithm>
#include <ctime>

#include <nlohmann/json.hpp>

#include "scripted_apis.h"
#include "token_budget.h"

namespace aiperf::mock {

namespace {

using nlohmann::json;

constexpr int kStepsPerImage = 10;   // each image costs ttft + 10 itl
constexpr int kTokensPerImage = 272;  // gpt-image-1 output tokens of a low-quality square image

}  // namespace

ScriptedOrBad image_generation_reply(std::string_view body_text, const Pacing& pacing) {
  const json body = json::parse(body_text, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object()) return BadRequest{"request body must be a JSON object"};
  const auto prompt = body.find("prompt");
  if (prompt == body.end() || !prompt->is_string()) return BadRequest{"'prompt' must be a string"};
  const json n_field = body.value("n", json(1));
  if (!n_field.is_number_integer() || n_field.get<int>() < 1 || n_field.get<int>() > 10)
    return BadRequest{"'n' must be an integer from 1 to 10"};
  const int n = n_field.get<int>();
  const bool url = body.value("response_format", std::string("b64_json")) == "url";
  const std::string size = body.value("size", std::string("1024x1024"));
  const std::string quality = body.value("quality", std::string("standard"));
  const int prompt_tokens = count_prompt_tokens(prompt->get_ref<const std::string&>());
  const json usage = {{"total_tokens", prompt_tokens + n * kTokensPerImage},
                      {"input_tokens", prompt_tokens},
                      {"output_tokens", n * kTokensPerImage},
                      {"input_tokens_details", {{"text_tokens", prompt_tokens}, {"image_tokens", 0}}}};
  const int64_t created = std::time(nullptr);
  const auto image_done = [&](int k) { return pacing.ttft + (kStepsPerImage * (k + 1) - 1) * pacing.itl; };

  ScriptedReply reply;
  reply.prompt_tokens = prompt_tokens;
  if (!body.value("stream", false)) {
    json data = json::array();
    for (int k = 0; k < n; ++k) {
      json item;
      if (url) item["url"] = "https://images.mock/" + std::to_string(created) + "-" + std::to_string(k) + ".png";
      else item["b64_json"] = kPng1x1;
      item["revised_prompt"] = *prompt;
      data.push_back(std::move(item));
    }
    json response = {{"created", created}, {"data", std::move(data)}, {"size", size}, {"quality", quality},
                     {"output_format", "png"}, {"background", "opaque"}, {"usage", usage}};
    reply.pieces.push_back({image_done(n - 1), response.dump()});
    return reply;
  }
  // Streaming (gpt-image-1): partial images while denoising, then the final image.
  reply.stream = true;
  reply.content_type = "text/event-stream";
  const int partials = std::clamp(body.value("partial_images", 0), 0, 3);
  for (int k = 0; k < n; ++k) {
    for (int p = 0; p < partials; ++p) {
      const auto at = pacing.ttft + (kStepsPerImage * k + (p + 1) * kStepsPerImage / (partials + 1)) * pacing.itl;
      json event = {{"type", "image_generation.partial_image"}, {"b64_json", kPng1x1}, {"created_at", created},
                    {"size", size}, {"quality", quality}, {"background", "opaque"}, {"output_format", "png"},
                    {"partial_image_index", p}};
      reply.pieces.push_back({at, sse_event("image_generation.partial_image", event.dump())});
    }
    json event = {{"type", "image_generation.completed"}, {"b64_json", kPng1x1}, {"created_at", created},
                  {"size", size}, {"quality", quality}, {"background", "opaque"}, {"output_format", "png"},
                  {"usage", usage}};
    reply.pieces.push_back({image_done(k), sse_event("image_generation.completed", event.dump())});
  }
  return reply;
}

}  // namespace aiperf::mock
