// The worker's Transport (worker_ports.h): its HttpClient, or for polled job types
// (video_generation) a VideoJobRunner on that client; requests to grpc:// and grpcs:// URLs go
// to a KServe gRPC client (kserve/grpc_client.h), made at the first such request. Lives on the
// io thread.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include <boost/asio/io_context.hpp>

#include "http/http_client.h"
#include "kserve/grpc_client.h"
#include "video_job_runner.h"
#include "worker_ports.h"

namespace aiperf::worker {

class HttpTransport final : public Transport {
 public:
  explicit HttpTransport(boost::asio::io_context& io) : io_(io) {}

  // Once, before the first send. `video`: the endpoint polls jobs (endpoint.requires_polling).
  void open(const http::ClientOptions& options, std::optional<VideoJobSettings> video) {
    options_ = options;
    client_ = std::make_unique<http::HttpClient>(io_, options);
    if (video) video_jobs_ = std::make_unique<VideoJobRunner>(*client_, io_, *video);
  }
  // Ends every request (the jobs first); their callbacks must still find what they refer to.
  void close() {
    video_jobs_.reset();
    client_.reset();
    grpc_.reset();
  }

  http::CancelHandlePtr send(http::Request request, http::SendOptions options,
                             std::function<void(http::Result&&)> done) override {
    if (kserve::is_grpc_url(request.url)) {
      if (!grpc_) grpc_ = std::make_unique<kserve::GrpcClient>(io_, options_);
      return grpc_->send(request, std::move(options), std::move(done));
    }
    // A polled job type submits, polls and downloads as one request (video_job.h).
    return video_jobs_ ? video_jobs_->run(std::move(request), std::move(options), std::move(done))
                       : client_->send(std::move(request), std::move(options), std::move(done));
  }

 private:
  boost::asio::io_context& io_;
  http::ClientOptions options_;
  std::unique_ptr<http::HttpClient> client_;
  std::unique_ptr<kserve::GrpcClient> grpc_;
  std::unique_ptr<VideoJobRunner> video_jobs_;  // after client_: ends first
};

}  // namespace aiperf::worker
