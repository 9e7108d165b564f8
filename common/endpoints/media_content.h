// Content of AIPerf 0.13's media endpoint responses. Private to the endpoints library.
#pragma once
#include <cstdint>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// image_retrieval (NIM): a content response (no text) when the object's "data" is truthy in
// Python's sense (non-empty list/object/string, non-zero number, true).
void extract_image_retrieval_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

// image_edit: any non-empty object is a content response (AIPerf keeps its images list, even
// empty); a non-empty "usage" is recorded (input_tokens / output_tokens spellings).
void extract_image_edit_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

// audio_transcription, JSON bodies (response_format json / verbose_json): the "text" string is
// the transcript, "usage" is recorded; a JSON null is a body like any text.
void extract_transcription_content(const nlohmann::json& j, std::string_view body, int64_t perf_ns, ParseResult& out);

// audio_transcription, bodies that are not JSON (text / srt / vtt): the whole body is the
// transcript; an empty one is no content.
void extract_transcription_text(std::string_view body, int64_t perf_ns, ParseResult& out);

}  // namespace aiperf::endpoints
