// video_generation (AIPerf 0.13's OpenAI/SGLang video job API): the request body, the content
// of job responses, and the rules of the submit-then-poll flow as pure functions, so the
// worker's state machine (services/worker/video_job.h) only sequences requests and waits.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset.pb.h"
#include "endpoints/endpoint.h"

namespace aiperf::endpoints {

// {"prompt": the last turn's first text, "model"}, then every extra input (size, seconds,
// seed, num_inference_steps, ...) merged over them, as AIPerf's dict.update. Sent as
// multipart/form-data (the type requires form data). Throws std::invalid_argument with AIPerf's
// texts without a turn or a prompt.
nlohmann::ordered_json video_generation_payload(const std::vector<const proto::Turn*>& turns,
                                                const std::string& model, const nlohmann::json* extra_inputs);

// One job response (submit or final poll): a non-empty object is a content response (no text);
// "usage" is recorded; the first numeric inference_time_s / peak_memory_mb are kept.
void extract_video_content(const nlohmann::json& j, int64_t perf_ns, ParseResult& out);

// Why a video job ends as an error record: AIPerf's ErrorDetails (code, type, message).
struct VideoJobError {
  int code = 500;
  std::string type;
  std::string message;
  bool operator==(const VideoJobError&) const = default;
};

// The submit response body -> the job's "id", or VideoGenerationError (500): "Invalid JSON in
// video submit response (status S): <first 200 chars or <empty>>" / "No job ID returned: <body>".
std::variant<std::string, VideoJobError> read_video_submit(std::string_view body, int status);

// One poll response body. Statuses compare case-insensitively: completed ends the job (its
// object is kept for the record, its "url" for the download), failed ends it with
// VideoGenerationError "Video generation failed: <error.message | str(error) | Unknown error>";
// anything else (queued, in_progress, none) polls again.
struct VideoPoll {
  enum class State { kPending, kCompleted } state = State::kPending;
  std::string url;  // "url" of a completed job when a non-empty string
};
std::variant<VideoPoll, VideoJobError> read_video_poll(std::string_view body, int status);

// <submit url without trailing '/'>/<job id>, placed before any query string.
std::string video_poll_url(const std::string& submit_url, const std::string& job_id);
// Where a completed job's video is downloaded: its url, else <poll url>/content.
std::string video_content_url(const std::string& poll_url, const std::string& job_url);

// AIPerf's TimeoutError (504) when the job is not done within the request timeout:
// "Video generation timed out after <seconds as Python prints a float>s".
VideoJobError video_timeout_error(double timeout_seconds);
// A download is a video only when its Content-Type is video/*, image/*, audio/* or
// application/octet-stream (what aiohttp reads as bytes); otherwise VideoDownloadError (500)
// "No content returned for video <id>".
std::optional<VideoJobError> check_video_download(std::string_view content_type, const std::string& job_id);

}  // namespace aiperf::endpoints
