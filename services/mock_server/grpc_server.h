// GrpcServer: the mock's KServe v2 gRPC mode (--grpc-port): Triton's GRPCInferenceService with
// ServerLive/ServerReady/ModelReady (always true), ModelInfer and ModelStreamInfer, on the same
// token schedule as the HTTP APIs (ttft, then one token per itl; lengths by token_budget.h).
//
// A request carries text_input (BYTES) and optionally max_tokens (INT32/INT64), min_tokens,
// ignore_eos (BOOL) and stream (BOOL), typed or raw contents, or the limits in vLLM's
// sampling_parameters (a BYTES JSON string, values numbers or strings). ModelInfer answers once, with the
// whole text, at ttft + (n - 1) itl; ModelStreamInfer with stream true answers one response per
// token (its text), the last marked triton_final_response, else one whole response; either ends
// the stream once the client has closed its side and every request was answered. Outputs are
// text_output (BYTES, shape [1]) in raw_output_contents, as Triton sends them. A request without
// text_input fails: INVALID_ARGUMENT, or a stream response with error_message.
//
// Timers run on the MockServer's io contexts; gRPC's own threads only hand events over to them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace boost::asio {
class io_context;
}

namespace aiperf::mock {

struct ServerState;

class GrpcServer {
 public:
  // `next_context` picks the io context a call's timers run on; both must outlive the server.
  GrpcServer(const ServerState& state, std::function<boost::asio::io_context&()> next_context);
  ~GrpcServer();
  GrpcServer(const GrpcServer&) = delete;
  GrpcServer& operator=(const GrpcServer&) = delete;

  // Listens on host:port (0: the kernel picks). Throws std::runtime_error when it cannot bind.
  void start(const std::string& host, uint16_t port);
  // Ends the calls still running (CANCELLED) and shuts the server down; the io contexts must
  // still run. Idempotent.
  void stop();
  uint16_t port() const;

  struct Impl;  // public so the reactors in grpc_server.cpp can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace aiperf::mock
