// A video_generation request as AIPerf 0.13 sends it: POST the body to the submit URL, read
// the job id, GET <submit url>/<id> every poll interval until the job is completed or failed,
// then (with --download-video-content) GET its video. Every wait has a deadline: polling ends
// at the request timeout (TimeoutError 504), and each poll's own timeout is what is left of it,
// so a job never outlives --request-timeout-seconds by more than the poll in flight.
//
// The outcome is one http::Result, recorded as any request: start = the submit's start, end =
// when the job ended (after the download), status 200 on success, and two body chunks, each a
// whole JSON document: the submit answer (stamped when it arrived) and the completed job
// (stamped when the poll saw it), which endpoints::parse_response reads one by one. A failed
// step ends the job with that step's error (the transport's, the HTTP status', or
// VideoGenerationError / VideoDownloadError / TimeoutError, endpoints/video_generation.h).
#pragma once
#include <functional>
#include <memory>

#include "http/http_client.h"
#include "time/timers.h"

namespace aiperf::worker {

// Sends one HTTP request: the worker's HttpClient, a fake in tests.
class HttpSender {
 public:
  virtual ~HttpSender() = default;
  virtual http::CancelHandlePtr send(http::Request request, http::SendOptions options,
                                     std::function<void(http::Result&&)> done) = 0;
};

struct VideoJobSettings {
  double timeout_seconds = 21600;  // --request-timeout-seconds: the submit's and the polling's bound
  Nanos poll_interval_ns = 100'000'000;  // AIPERF_HTTP_VIDEO_POLL_INTERVAL (0.1 s)
  bool download_content = false;   // --download-video-content
};

// Starts the job; `done` runs exactly once, on the caller's thread (the sender's callbacks and
// the timers'); after the returned handle cancels the job it runs with a cancelled result.
// `submit` is the POST (URL, headers, body) sent with `submit_options` (its timeout and
// callbacks); the polls and the download reuse its headers without Content-Type. `sender` and
// `timers` must outlive the job.
http::CancelHandlePtr run_video_job(HttpSender& sender, Timers& timers, http::Request submit,
                                    http::SendOptions submit_options, VideoJobSettings settings,
                                    std::function<void(http::Result&&)> done);

}  // namespace aiperf::worker
