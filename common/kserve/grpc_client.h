// GrpcClient: KServe v2 inference over gRPC (Triton's GRPCInferenceService) behind the same
// request/result shapes as http::HttpClient, so the worker sends either without knowing which.
//
// A request is an http::Request whose URL is grpc://host:port/v2/models/<model>[/versions/<v>]/infer
// (grpcs:// for TLS) and whose body is a KServe JSON inference request (tensors.h). With
// `Accept: text/event-stream` among its headers it goes out as ModelStreamInfer (one request on
// its own bidirectional stream, each streamed response one body chunk stamped when it arrived:
// what decoupled LLM models answer token by token); otherwise as ModelInfer (one chunk). Each
// chunk is one whole JSON inference response; the result's content type is application/grpc.
// The other headers go out as metadata (lower-cased; Content-Type, Accept, User-Agent and names
// or values gRPC refuses are left out).
//
// gRPC runs the calls on its own few threads (its callback API: no thread per request); every
// callback the caller gave (on_request_sent, on_chunk, done) is posted to the io_context given at
// construction and runs there, as HttpClient's do. Failures are data: a status that is not OK
// becomes Result::error (InferenceServerException "[StatusCode.NAME] details"; the deadline,
// SendOptions::timeout_seconds, is TimeoutError as HTTP's), a stream response with an
// error_message too, and cancelling through the handle ends the call with HTTP's cancelled result.
// The grpc headers stay in grpc_client.cpp.
#pragma once
#include <functional>
#include <memory>
#include <string_view>

#include "http/http_client.h"

namespace aiperf::kserve {

// grpc:// or grpcs://
bool is_grpc_url(std::string_view url);

class GrpcClient {
 public:
  // Uses ClientOptions::ca_file (grpcs: extra trust roots, else the system's).
  GrpcClient(boost::asio::io_context& io, const http::ClientOptions& options);
  // Cancels the calls still running and waits (at most a few seconds) until gRPC has let go of
  // them; their `done` callbacks are not run.
  ~GrpcClient();
  GrpcClient(const GrpcClient&) = delete;
  GrpcClient& operator=(const GrpcClient&) = delete;

  // Starts the call; `done` runs exactly once on the io thread (never inside send()).
  http::CancelHandlePtr send(const http::Request& request, http::SendOptions options,
                             std::function<void(http::Result&&)> done);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::kserve
