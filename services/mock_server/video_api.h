// The mock's video generation API (OpenAI /v1/videos, SGLang's shape), an async job API:
//   POST /v1/videos            JSON or multipart/form-data: "prompt" (required), "model"?,
//                              "size"? ("WxH", default 1280x720), "seconds"? (default 4);
//                              answers the job {id: "video_<n>", object: "video", status:
//                              "queued", progress: 0, model, size, seconds, created_at}.
//   GET /v1/videos/{id}        the job: "in_progress" (progress 100 k / (P + 1)) for the first
//                              P polls, then "completed" with SGLang's inference_time_s =
//                              seconds / 8 and peak_memory_mb = W * H / 1024 (no url: the
//                              content is at .../content), or "failed" with error {code:
//                              "generation_failed", message: "mock video generation failed"}.
//   GET /v1/videos/{id}/content  a completed job's video (video/mp4, 32 bytes); 404 before.
// Ours, in the submitted body (e.g. --extra-inputs): "mock_polls": P (in_progress answers,
// default 2), "mock_fail": true (the job fails). Jobs live in this process (run the mock with
// one process for video jobs); the oldest are forgotten beyond 65536.
#pragma once
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace aiperf::mock {

struct VideoReply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

class VideoJobs {
 public:
  // POST /v1/videos with the request's Content-Type and body; 400 for a missing prompt or a
  // malformed size, seconds or mock field.
  VideoReply submit(std::string_view content_type, std::string_view body);
  // GET /v1/videos/{id} and /v1/videos/{id}/content (`path` without the query); 404 for an
  // unknown job or a video not ready.
  VideoReply get(std::string_view path);

  static constexpr size_t kMaxJobs = 65536;

 private:
  struct Job {
    std::string model, size, seconds;
    int64_t created_at = 0;
    int polls_before_done = 2;
    bool fail = false;
    int polls = 0;  // answered so far
    double inference_time_s = 0;
    double peak_memory_mb = 0;
  };
  std::mutex mutex_;
  std::unordered_map<std::string, Job> jobs_;
  std::deque<std::string> order_;  // ids, oldest first
  uint64_t next_id_ = 1;
};

}  // namespace aiperf::mock
