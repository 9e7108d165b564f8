// The APIs answered with a ScriptedReply (spec §8.1): each parses its request body and
// prepares the whole reply. Output text comes from the TextPool like chat's, and lengths follow
// the same token budget rules (token_budget.h).
#pragma once
#include <optional>
#include <string_view>
#include <variant>

#include <nlohmann/json_fwd.hpp>

#include "generation_request.h"  // BadRequest
#include "retrieval_responses.h"
#include "scripted_reply.h"
#include "text_pool.h"

namespace aiperf::mock {

// A valid 1x1 PNG, base64, the picture of every generated or edited image: clients that decode
// it get a real one, and bodies stay small.
inline constexpr const char* kPng1x1 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

using ScriptedOrBad = std::variant<ScriptedReply, BadRequest>;

// A request body's non-negative integer field (absent or null: nullopt); anything else throws
// BadRequest naming the field.
std::optional<int> int_field(const nlohmann::json& body, const char* key);

// POST /v1/responses (OpenAI Responses API). `input` is a string or items whose content is a
// string or input_text parts (user items are counted); max_output_tokens, min_tokens,
// ignore_eos and stream as in chat. Models named *gpt-oss* or *qwen* reason first:
// reasoning.effort low/medium/high = 100/250/500 tokens (default medium), capped by the
// budget. Streaming sends response.created, reasoning_text.delta and output_text.delta per
// token, output_text.done and response.completed (with usage); otherwise one `response`
// object.
ScriptedOrBad responses_reply(std::string_view body, const TextPool& pool, const Pacing& pacing, uint64_t id);

// POST /v1/messages (Anthropic Messages API): {"model", "messages" (user string content or
// text blocks are counted), "max_tokens" (required), "system"?, "stream"?, "thinking"?
// ({"type": "enabled", "budget_tokens": N}: N thinking tokens first, capped by the budget),
// min_tokens/ignore_eos as in chat}. Answers a `message` with thinking and text blocks and usage
// {input_tokens, cache_*_input_tokens: 0, output_tokens}; streaming sends message_start (input
// usage), ping, per block content_block_start, one thinking_delta/text_delta per token (a
// signature_delta closes thinking), content_block_stop, then message_delta (stop_reason,
// output usage) and message_stop. Ours: "mock_error_after": N replaces the (N+1)-th delta with
// `event: error` {"type": "error", "error": {"type": "overloaded_error", ...}} and ends there.
ScriptedOrBad messages_reply(std::string_view body, const TextPool& pool, const Pacing& pacing, uint64_t id);

// POST /v1/images/generations: {"prompt", "n"?, "response_format"? (b64_json|url), "size"?,
// "quality"?, "stream"?, "partial_images"?}. Each image takes ttft + 10 itl ("denoising
// steps"); the data is a 1x1 PNG. Streaming sends image_generation.partial_image events then
// image_generation.completed with usage.
ScriptedOrBad image_generation_reply(std::string_view body, const Pacing& pacing);

// POST /v1/infer (NIM image retrieval): {"input": [{"type": "image_url", "url"}...]} (non-empty).
// Answers {"data": [{"index", "bounding_boxes": {"chart": [{x_min, y_min, x_max, y_max,
// confidence}]}}...]}, one entry per image, after ttft per image.
ScriptedOrBad image_retrieval_reply(std::string_view body, const Pacing& pacing);

// POST /v1/images/edits, multipart/form-data: "prompt" (text), an "image" file or a "url" field,
// "n"? (1-10), "response_format"? (b64_json|url), "model"?. Answers {"created", "data": [{b64_json
// | url}], "usage": {total_tokens, input_tokens, output_tokens, input_tokens_details}} after
// ttft + (10 n - 1) itl.
ScriptedOrBad image_edit_reply(std::string_view content_type, std::string_view body, const Pacing& pacing);

// POST /v1/audio/transcriptions, multipart/form-data: a "file" upload, "model"?,
// "response_format"? (json default, text, verbose_json). The transcript has ceil(2.5 words per
// second of audio) pool pieces (a WAV's length from its header, anything else 1 s), leading space
// removed; json answers {"text", "usage": {"type": "duration", "seconds": ceil(length)}},
// verbose_json {"task", "language", "duration", "text"}, text the transcript as text/plain.
// Sent after ttft + (words - 1) itl.
ScriptedOrBad transcription_reply(std::string_view content_type, std::string_view body, const TextPool& pool,
                                  const Pacing& pacing);

// Length in seconds of a RIFF/WAVE file (data chunk size / byte rate), nullopt if not one.
std::optional<double> wav_duration_seconds(std::string_view wav);

// POST /rag/api/prompt (Solido RAG): {"query": string or list, "filters"?, "inference_model"?,
// "stream"?}. Answers {"content", "sources", "inference_model", "filters"}; streaming sends
// one {"content": piece} event per token, then one with the sources.
ScriptedOrBad solido_rag_reply(std::string_view body, const TextPool& pool, const Pacing& pacing);

// POST /v2/models/{model}/generate[_stream] (Triton generate extension): {"text_input",
// "max_tokens"?, "min_tokens"?, "ignore_eos"?}. Answers {"model_name", "model_version",
// "text_output"}; streaming sends one such event per token with that token's text.
ScriptedOrBad triton_generate_reply(std::string_view target, std::string_view body, bool stream,
                                    const TextPool& pool, const Pacing& pacing);

// Embeddings and rankings paced by their latency knobs: base + per_item * items.
ScriptedOrBad retrieval_reply(RetrievalApi api, std::string_view body, std::chrono::nanoseconds base,
                              std::chrono::nanoseconds per_item);

}  // namespace aiperf::mock
