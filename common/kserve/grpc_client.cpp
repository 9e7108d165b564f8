#include "kserve/grpc_client.h"

#include <grpcpp/grpcpp.h>
#include <strings.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "kserve.grpc.pb.h"
#include "kserve/tensors.h"
#include "log/log.h"
#include "time/clock.h"

namespace aiperf::kserve {

namespace {

using inference::GRPCInferenceService;
using inference::ModelInferRequest;
using inference::ModelInferResponse;
using inference::ModelStreamInferResponse;

// How long close() waits for gRPC to finish the calls it cancelled.
constexpr auto kCloseWait = std::chrono::seconds(5);

struct GrpcUrl {
  bool tls = false;
  std::string target;  // host:port
  std::string path;
};

std::optional<GrpcUrl> parse_grpc_url(std::string_view url) {
  GrpcUrl out;
  if (url.starts_with("grpcs://")) {
    out.tls = true;
    url.remove_prefix(8);
  } else if (url.starts_with("grpc://")) {
    url.remove_prefix(7);
  } else {
    return std::nullopt;
  }
  const size_t slash = url.find('/');
  out.target = std::string(url.substr(0, slash));
  out.path = slash == std::string_view::npos ? "/" : std::string(url.substr(slash, url.find('?') - slash));
  if (out.target.empty()) return std::nullopt;
  return out;
}

// tritonclient's wording: "[StatusCode.UNAVAILABLE] failed to connect to all addresses".
const char* status_name(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "CANCELLED";
    case grpc::StatusCode::UNKNOWN:
      return "UNKNOWN";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "INVALID_ARGUMENT";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DEADLINE_EXCEEDED";
    case grpc::StatusCode::NOT_FOUND:
      return "NOT_FOUND";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "ALREADY_EXISTS";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PERMISSION_DENIED";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "RESOURCE_EXHAUSTED";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FAILED_PRECONDITION";
    case grpc::StatusCode::ABORTED:
      return "ABORTED";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OUT_OF_RANGE";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "UNIMPLEMENTED";
    case grpc::StatusCode::INTERNAL:
      return "INTERNAL";
    case grpc::StatusCode::UNAVAILABLE:
      return "UNAVAILABLE";
    case grpc::StatusCode::DATA_LOSS:
      return "DATA_LOSS";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "UNAUTHENTICATED";
    default:
      return "UNKNOWN";
  }
}

http::Error server_error(const std::string& message) {
  return http::Error{std::nullopt, "InferenceServerException", message};
}

// Metadata keys gRPC accepts: lower-case letters, digits, '-', '_', '.'; values printable ASCII.
std::optional<std::string> metadata_key(std::string_view name) {
  static constexpr std::string_view kSkipped[] = {"content-type",   "accept", "user-agent", "host",
                                                  "content-length", "te",     "connection"};
  std::string key;
  for (char c : name) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (!((lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-' || lower == '_' ||
          lower == '.'))
      return std::nullopt;
    key += lower;
  }
  if (key.empty() || key.starts_with("grpc-")) return std::nullopt;
  for (std::string_view skipped : kSkipped) {
    if (key == skipped) return std::nullopt;
  }
  return key;
}

bool printable(std::string_view value) {
  for (char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

}  // namespace

namespace grpc_detail {

// What every call of one client shares with the threads gRPC calls back on: the io_context
// results are posted to (null once the client closed) and the calls still running, so cancel
// handles and close() find them.
struct Hub {
  struct Live {
    grpc::ClientContext* context;
    std::atomic<bool>* cancelled;
  };
  std::mutex mu;
  std::condition_variable idle;
  boost::asio::io_context* io;
  std::unordered_map<uint64_t, Live> live;
  uint64_t next_id = 0;

  explicit Hub(boost::asio::io_context& context) : io(&context) {}

  void post(std::function<void()> fn) {
    std::lock_guard lock(mu);
    if (io) boost::asio::post(*io, std::move(fn));
  }
  void cancel(uint64_t id) {
    std::lock_guard lock(mu);
    if (auto it = live.find(id); it != live.end()) {
      it->second.cancelled->store(true);
      it->second.context->TryCancel();
    }
  }
  void finished(uint64_t id) {
    std::lock_guard lock(mu);
    live.erase(id);
    if (live.empty()) idle.notify_all();
  }
};

}  // namespace grpc_detail

namespace {

using grpc_detail::Hub;

class GrpcCancel final : public http::CancelHandle {
 public:
  GrpcCancel(std::shared_ptr<Hub> hub, uint64_t id) : hub_(std::move(hub)), id_(id) {}
  void cancel() override { hub_->cancel(id_); }

 private:
  std::shared_ptr<Hub> hub_;
  uint64_t id_;
};

// One call, unary or streaming: its context, request, result so far and the caller's callbacks.
// Deleted by the gRPC thread that completes it, after its result was posted.
struct Call {
  std::shared_ptr<Hub> hub;
  uint64_t id = 0;
  grpc::ClientContext context;
  ModelInferRequest request;
  http::Result result;
  double timeout_seconds = 0;
  std::atomic<bool> cancelled{false};
  std::optional<http::Error> stream_error;
  std::function<void(http::Result&&)> done;
  std::function<void(int64_t, const std::string&)> on_chunk;
  std::function<void(int64_t)> on_request_sent;

  virtual ~Call() = default;

  // A response arrived at `now`: one chunk, also shown to on_chunk on the io thread.
  void add_chunk(int64_t now, const ModelInferResponse& response) {
    if (result.ack_perf_ns == 0) result.ack_perf_ns = now;
    // A decoupled model's empty closing response carries no tensor: nothing to record.
    if (response.outputs_size() == 0) return;
    std::string data = response_to_json(response);
    if (on_chunk) hub->post([cb = on_chunk, now, data] { cb(now, data); });
    result.chunks.push_back(http::Chunk{now, std::move(data)});
  }

  // The call ended with `status`: the result goes to the io thread, the call is unregistered.
  void complete(const grpc::Status& status) {
    http::Result& r = result;
    r.end_perf_ns = steady_now_ns();
    r.content_type = "application/grpc";
    if (cancelled.load()) {
      r.cancelled = true;
      r.error = http::Error{499, "RequestCancellationError", "Request cancelled by external signal"};
    } else if (status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
      r.error =
          http::Error{std::nullopt, "TimeoutError", std::string("Request timed out after ") + seconds + " seconds"};
    } else if (!status.ok()) {
      r.error =
          server_error(std::string("[StatusCode.") + status_name(status.error_code()) + "] " + status.error_message());
    } else if (stream_error) {
      r.error = std::move(*stream_error);
    } else {
      r.status = 200;
      r.reason = "OK";
    }
    if (r.error) {
      r.trace.error_perf_ns = r.end_perf_ns;
      r.chunks.clear();  // an error record has no content
    }
    hub->post([cb = std::move(done), res = std::move(r)]() mutable { cb(std::move(res)); });
    hub->finished(id);
  }

  void request_sent(int64_t now) {
    result.trace.send_end_perf_ns = now;
    if (on_request_sent) hub->post([cb = std::move(on_request_sent), now] { cb(now); });
  }
};

struct UnaryCall final : Call {
  ModelInferResponse response;
};

// ModelStreamInfer with one request: written with the end of writes, then every response read
// until the server ends the stream.
class StreamCall final : public Call, public grpc::ClientBidiReactor<ModelInferRequest, ModelStreamInferResponse> {
 public:
  void start(GRPCInferenceService::Stub& stub) {
    stub.async()->ModelStreamInfer(&context, this);
    StartWriteLast(&request, grpc::WriteOptions());
    StartRead(&response_);
    StartCall();
  }
  void OnWriteDone(bool ok) override {
    if (ok) request_sent(steady_now_ns());
  }
  void OnReadInitialMetadataDone(bool ok) override {
    if (ok && result.ack_perf_ns == 0) result.ack_perf_ns = steady_now_ns();
  }
  void OnReadDone(bool ok) override {
    if (!ok) return;  // the stream ended: OnDone follows
    const int64_t now = steady_now_ns();
    if (!response_.error_message().empty()) {
      if (!stream_error) stream_error = server_error(response_.error_message());
    } else if (!stream_error) {
      add_chunk(now, response_.infer_response());
    }
    response_.Clear();
    StartRead(&response_);
  }
  void OnDone(const grpc::Status& status) override {
    complete(status);
    delete this;
  }

 private:
  ModelStreamInferResponse response_;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read CA file " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

bool is_grpc_url(std::string_view url) { return url.starts_with("grpc://") || url.starts_with("grpcs://"); }

struct GrpcClient::Impl {
  boost::asio::io_context& io;
  http::ClientOptions options;
  std::shared_ptr<Hub> hub;
  // One channel per server (scheme + host:port), each its own HTTP/2 connection: a local
  // subchannel pool keeps workers of one process from sharing one.
  std::unordered_map<std::string, std::unique_ptr<GRPCInferenceService::Stub>> stubs;

  Impl(boost::asio::io_context& context, const http::ClientOptions& opts)
      : io(context), options(opts), hub(std::make_shared<Hub>(context)) {}

  GRPCInferenceService::Stub& stub(const GrpcUrl& url) {
    const std::string key = (url.tls ? "s:" : ":") + url.target;
    auto it = stubs.find(key);
    if (it != stubs.end()) return *it->second;
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (url.tls) {
      grpc::SslCredentialsOptions ssl;
      if (!options.ca_file.empty()) ssl.pem_root_certs = read_file(options.ca_file);
      creds = grpc::SslCredentials(ssl);
    } else {
      creds = grpc::InsecureChannelCredentials();
    }
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
    args.SetMaxReceiveMessageSize(-1);  // a long generation is one big response
    auto channel = grpc::CreateCustomChannel(url.target, creds, args);
    return *stubs.emplace(key, GRPCInferenceService::NewStub(channel)).first->second;
  }
};

GrpcClient::GrpcClient(boost::asio::io_context& io, const http::ClientOptions& options)
    : impl_(std::make_unique<Impl>(io, options)) {}

GrpcClient::~GrpcClient() {
  Hub& hub = *impl_->hub;
  std::unique_lock lock(hub.mu);
  hub.io = nullptr;  // results of calls still running are dropped
  for (auto& entry : hub.live) entry.second.context->TryCancel();
  if (!hub.idle.wait_for(lock, kCloseWait, [&] { return hub.live.empty(); })) {
    AIPERF_LOG(kWarning) << hub.live.size() << " gRPC call(s) still running " << kCloseWait.count()
                         << " s after they were cancelled; their channels are left open";
    for (auto& entry : impl_->stubs) static_cast<void>(entry.second.release());  // leaked: a call still uses them
  }
}

http::CancelHandlePtr GrpcClient::send(const http::Request& request, http::SendOptions options,
                                       std::function<void(http::Result&&)> done) {
  const ClockPair start = paired_now();
  bool streaming = false;
  for (const auto& [name, value] : request.headers) {
    if (strcasecmp(name.c_str(), "accept") == 0 && value == "text/event-stream") streaming = true;
  }
  Call* call = streaming ? static_cast<Call*>(new StreamCall()) : new UnaryCall();
  call->hub = impl_->hub;
  call->result.start_perf_ns = start.steady;
  call->result.start_wall_ns = start.wall;
  call->result.trace.send_start_perf_ns = start.steady;
  call->timeout_seconds = options.timeout_seconds;
  call->done = std::move(done);
  call->on_chunk = std::move(options.on_chunk);
  call->on_request_sent = std::move(options.on_request_sent);

  // A request that cannot be sent fails at once, through the io thread as every result does.
  auto fail = [&](http::Error error) {
    call->result.end_perf_ns = steady_now_ns();
    call->result.error = std::move(error);
    call->result.trace.error_perf_ns = call->result.end_perf_ns;
    boost::asio::post(impl_->io,
                      [cb = std::move(call->done), r = std::move(call->result)]() mutable { cb(std::move(r)); });
    delete call;
    return std::make_shared<GrpcCancel>(impl_->hub, UINT64_MAX);
  };
  const std::optional<GrpcUrl> url = parse_grpc_url(request.url);
  if (!url) return fail(http::Error{std::nullopt, "InvalidURL", request.url});
  const std::optional<ModelRef> model = model_from_path(url->path);
  if (!model)
    return fail(http::Error{std::nullopt, "InvalidURL",
                            request.url + " (a KServe gRPC URL names the model: /v2/models/<model>/infer)"});
  try {
    request_from_json(request.body, *model, call->request);
  } catch (const std::invalid_argument& e) {
    return fail(http::Error{std::nullopt, "ValueError", e.what()});
  }
  GRPCInferenceService::Stub* stub = nullptr;
  try {
    stub = &impl_->stub(*url);
  } catch (const std::exception& e) {
    return fail(http::Error{std::nullopt, "ClientConnectorSSLError", e.what()});
  }
  for (const auto& [name, value] : request.headers) {
    if (auto key = metadata_key(name); key && printable(value)) {
      call->context.AddMetadata(*key, value);
      call->result.trace.request_headers.emplace_back(name, value);
    }
  }
  // gRPC takes deadlines on the wall clock.
  const auto deadline =
      std::chrono::nanoseconds(start.wall) +
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(options.timeout_seconds));
  call->context.set_deadline(
      std::chrono::system_clock::time_point(std::chrono::duration_cast<std::chrono::system_clock::duration>(deadline)));
  call->result.trace.bytes_sent = call->request.ByteSizeLong();
  call->result.trace.body_bytes_sent = call->result.trace.bytes_sent;
  Hub& hub = *impl_->hub;
  {
    std::lock_guard lock(hub.mu);
    call->id = hub.next_id++;
    hub.live.emplace(call->id, Hub::Live{&call->context, &call->cancelled});
  }
  auto handle = std::make_shared<GrpcCancel>(impl_->hub, call->id);
  if (streaming) {
    static_cast<StreamCall*>(call)->start(*stub);
    return handle;
  }
  auto* unary = static_cast<UnaryCall*>(call);
  // The unary API tells nothing between start and answer: the request counts as sent when the
  // call starts (before: once started, gRPC's thread may complete and delete it at any time).
  unary->request_sent(steady_now_ns());
  stub->async()->ModelInfer(&unary->context, &unary->request, &unary->response, [unary](const grpc::Status& status) {
    if (status.ok()) unary->add_chunk(steady_now_ns(), unary->response);
    unary->complete(status);
    delete unary;
  });
  return handle;
}

}  // namespace aiperf::kserve
