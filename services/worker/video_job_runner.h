// The worker's launcher of video jobs (video_job.h): its HttpClient sends, its io_context's
// timers pace the polls. Lives on the worker's io thread, next to the client it uses.
#pragma once
#include <functional>
#include <utility>

#include "asio_timers.h"
#include "http/http_client.h"
#include "video_job.h"

namespace aiperf::worker {

class VideoJobRunner final : public HttpSender {
 public:
  VideoJobRunner(http::HttpClient& client, boost::asio::io_context& io, VideoJobSettings settings)
      : client_(client), timers_(io), settings_(settings) {}

  http::CancelHandlePtr send(http::Request request, http::SendOptions options,
                             std::function<void(http::Result&&)> done) override {
    return client_.send(std::move(request), std::move(options), std::move(done));
  }

  // One job for `submit`; `options` are the submit's (timeout, callbacks).
  http::CancelHandlePtr run(http::Request submit, http::SendOptions options, std::function<void(http::Result&&)> done) {
    return run_video_job(*this, timers_, std::move(submit), std::move(options), settings_, std::move(done));
  }

 private:
  http::HttpClient& client_;
  AsioTimers timers_;
  const VideoJobSettings settings_;
};

}  // namespace aiperf::worker
