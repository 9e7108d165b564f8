#include "grpc_server.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <nlohmann/json.hpp>

#include "kserve.grpc.pb.h"
#include "server_state.h"
#include "time/clock.h"
#include "token_budget.h"

namespace aiperf::mock {

// Named, not anonymous: GrpcServer::Impl holds these types, and in a unity batch GCC warns about
// a class whose members have internal linkage.
namespace grpc_mock {

namespace asio = boost::asio;
using inference::ModelInferRequest;
using inference::ModelInferResponse;
using inference::ModelStreamInferResponse;
using Clock = std::chrono::steady_clock;

// One request's answer: the pieces of text to send and when (since the request arrived).
struct Plan {
  std::string model;
  std::string id;
  bool stream = false;  // one response per token
  Clock::time_point arrival;
  std::vector<std::string> pieces;
  std::vector<std::chrono::nanoseconds> at;
  std::string error;  // the request was refused
  size_t next = 0;    // streaming: the next piece to send

  size_t responses() const { return error.empty() ? (stream ? pieces.size() : 1) : 1; }
  std::chrono::nanoseconds due(size_t i) const { return stream ? at[i] : at.back(); }
};

uint32_t read_u32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
  return v;
}

int find_input(const ModelInferRequest& req, std::string_view name) {
  for (int i = 0; i < req.inputs_size(); ++i) {
    if (req.inputs(i).name() == name) return i;
  }
  return -1;
}

const std::string* raw_contents(const ModelInferRequest& req, int i) {
  return i < req.raw_input_contents_size() ? &req.raw_input_contents(i) : nullptr;
}

// BYTES elements, typed or raw (4-byte little-endian length, then the bytes).
std::vector<std::string> bytes_input(const ModelInferRequest& req, int i) {
  std::vector<std::string> out;
  if (const std::string* raw = raw_contents(req, i)) {
    for (size_t at = 0; at + 4 <= raw->size();) {
      const uint32_t len = read_u32(*raw, at);
      at += 4;
      if (len > raw->size() - at) break;
      out.push_back(raw->substr(at, len));
      at += len;
    }
    return out;
  }
  const auto& c = req.inputs(i).contents().bytes_contents();
  return {c.begin(), c.end()};
}

std::optional<int64_t> int_input(const ModelInferRequest& req, int i) {
  const auto& tensor = req.inputs(i);
  if (const std::string* raw = raw_contents(req, i)) {
    const size_t width = tensor.datatype() == "INT64" ? 8 : 4;
    if (raw->size() < width) return std::nullopt;
    uint64_t bits = 0;
    for (size_t b = 0; b < width; ++b) bits |= static_cast<uint64_t>(static_cast<unsigned char>((*raw)[b])) << (8 * b);
    return width == 8 ? static_cast<int64_t>(bits) : static_cast<int32_t>(bits);
  }
  const auto& c = tensor.contents();
  if (c.int_contents_size() > 0) return c.int_contents(0);
  if (c.int64_contents_size() > 0) return c.int64_contents(0);
  if (c.uint_contents_size() > 0) return c.uint_contents(0);
  return std::nullopt;
}

bool bool_input(const ModelInferRequest& req, int i) {
  if (const std::string* raw = raw_contents(req, i)) return !raw->empty() && (*raw)[0] != 0;
  return req.inputs(i).contents().bool_contents_size() > 0 && req.inputs(i).contents().bool_contents(0);
}

Plan make_plan(const ModelInferRequest& req, const ServerState& state, bool streaming_rpc) {
  Plan plan;
  plan.arrival = Clock::time_point(std::chrono::nanoseconds(steady_now_ns()));  // the steady clock
  plan.model = req.model_name();
  plan.id = req.id();
  const int text = find_input(req, "text_input");
  if (text < 0) {
    plan.error = "expected input 'text_input' (BYTES) for model '" + req.model_name() + "'";
    return plan;
  }
  PromptTally tally;
  for (const std::string& t : bytes_input(req, text)) tally.add(t);
  OutputRequest want;
  const auto bounded = [&](const char* name) -> std::optional<int> {
    const int i = find_input(req, name);
    if (i < 0) return std::nullopt;
    const std::optional<int64_t> v = int_input(req, i);
    if (!v || *v < 0 || *v > 1'000'000) return std::nullopt;
    return static_cast<int>(*v);
  };
  want.max_tokens = bounded("max_tokens");
  want.min_tokens = bounded("min_tokens");
  // Triton's vLLM backend takes its limits in sampling_parameters, a JSON string whose values
  // may be strings ({"max_tokens": "8"}, as GenAI-Perf writes them).
  if (const int i = find_input(req, "sampling_parameters"); i >= 0) {
    const std::vector<std::string> texts = bytes_input(req, i);
    const nlohmann::json p = texts.empty() ? nlohmann::json() : nlohmann::json::parse(texts.front(), nullptr, false);
    const auto limit = [&p](const char* key) -> std::optional<int> {
      if (!p.is_object() || !p.contains(key)) return std::nullopt;
      const nlohmann::json& v = p[key];
      long long n = -1;
      if (v.is_number_integer()) n = v.get<long long>();
      if (v.is_string()) n = std::strtoll(v.get<std::string>().c_str(), nullptr, 10);
      if (n < 0 || n > 1'000'000) return std::nullopt;
      return static_cast<int>(n);
    };
    if (const auto m = limit("max_tokens")) want.max_tokens = m;
    if (const auto m = limit("min_tokens")) want.min_tokens = m;
  }
  if (const int i = find_input(req, "ignore_eos"); i >= 0) want.ignore_eos = bool_input(req, i);
  if (const int i = find_input(req, "stream"); i >= 0) plan.stream = streaming_rpc && bool_input(req, i);
  const OutputPlan out = plan_output(want, tally.tokens(), tally.hash());
  const size_t offset = tally.hash() % state.pool.size();
  for (int i = 0; i < out.tokens; ++i) {
    plan.pieces.emplace_back(state.pool.piece(offset, i));
    plan.at.push_back(state.ttft + i * state.itl);
  }
  if (!plan.stream) {  // one response with the whole text, when the last token is due
    std::string whole;
    for (const std::string& p : plan.pieces) whole += p;
    plan.pieces = {std::move(whole)};
    plan.at = {plan.at.back()};
  }
  return plan;
}

// Response `i` of `plan`: text_output as Triton sends it (raw, length-prefixed BYTES).
void fill_response(const Plan& plan, size_t i, bool final_flag, ModelInferResponse& out) {
  out.Clear();
  out.set_model_name(plan.model);
  out.set_model_version("1");
  out.set_id(plan.id);
  auto* tensor = out.add_outputs();
  tensor->set_name("text_output");
  tensor->set_datatype("BYTES");
  tensor->add_shape(1);
  const std::string& text = plan.pieces[i];
  std::string raw(4, '\0');
  for (size_t b = 0; b < 4; ++b) raw[b] = static_cast<char>((text.size() >> (8 * b)) & 0xff);
  raw += text;
  out.add_raw_output_contents(std::move(raw));
  if (final_flag) (*out.mutable_parameters())["triton_final_response"].set_bool_param(true);
}

}  // namespace grpc_mock

namespace gm = grpc_mock;

struct GrpcServer::Impl final : inference::GRPCInferenceService::CallbackService {
  const ServerState& state;
  std::function<boost::asio::io_context&()> next_context;
  std::unique_ptr<grpc::Server> server;
  int port = 0;
  // The calls still running, each with the way to end it (on its io context).
  std::mutex mu;
  std::unordered_map<uint64_t, std::function<void()>> live;
  uint64_t next_id = 0;
  bool stopping = false;

  Impl(const ServerState& s, std::function<boost::asio::io_context&()> next)
      : state(s), next_context(std::move(next)) {}

  // Registers a call's cancel function; false once stopping (the call ends at once).
  std::optional<uint64_t> enter(std::function<void()> cancel) {
    std::lock_guard lock(mu);
    if (stopping) return std::nullopt;
    live.emplace(next_id, std::move(cancel));
    return next_id++;
  }
  void leave(uint64_t id) {
    std::lock_guard lock(mu);
    live.erase(id);
  }

  template <typename Response, typename Setter>
  grpc::ServerUnaryReactor* answer_now(grpc::CallbackServerContext* ctx, Response* response, Setter set) {
    set(*response);
    auto* reactor = ctx->DefaultReactor();
    reactor->Finish(grpc::Status::OK);
    return reactor;
  }

  grpc::ServerUnaryReactor* ServerLive(grpc::CallbackServerContext* ctx, const inference::ServerLiveRequest*,
                                       inference::ServerLiveResponse* response) override {
    return answer_now(ctx, response, [](auto& r) { r.set_live(true); });
  }
  grpc::ServerUnaryReactor* ServerReady(grpc::CallbackServerContext* ctx, const inference::ServerReadyRequest*,
                                        inference::ServerReadyResponse* response) override {
    return answer_now(ctx, response, [](auto& r) { r.set_ready(true); });
  }
  grpc::ServerUnaryReactor* ModelReady(grpc::CallbackServerContext* ctx, const inference::ModelReadyRequest*,
                                       inference::ModelReadyResponse* response) override {
    return answer_now(ctx, response, [](auto& r) { r.set_ready(true); });
  }

  grpc::ServerUnaryReactor* ModelInfer(grpc::CallbackServerContext* ctx, const inference::ModelInferRequest* request,
                                       inference::ModelInferResponse* response) override {
    auto* reactor = ctx->DefaultReactor();
    auto plan = std::make_shared<gm::Plan>(gm::make_plan(*request, state, false));
    if (!plan->error.empty()) {
      reactor->Finish(grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, plan->error));
      return reactor;
    }
    boost::asio::io_context& io = next_context();
    auto timer = std::make_shared<boost::asio::steady_timer>(io);
    const std::optional<uint64_t> id = enter([&io, timer] { boost::asio::post(io, [timer] { timer->cancel(); }); });
    if (!id) {
      reactor->Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server stopping"));
      return reactor;
    }
    timer->expires_at(plan->arrival + plan->due(0));
    // The response and reactor stay valid until Finish, which only this handler calls.
    timer->async_wait([this, plan, timer, reactor, response, call = *id](const boost::system::error_code& ec) {
      if (ec) {
        reactor->Finish(grpc::Status(grpc::StatusCode::CANCELLED, "server stopping"));
      } else {
        gm::fill_response(*plan, 0, false, *response);
        reactor->Finish(grpc::Status::OK);
      }
      leave(call);
    });
    return reactor;
  }

  grpc::ServerBidiReactor<inference::ModelInferRequest, inference::ModelStreamInferResponse>* ModelStreamInfer(
      grpc::CallbackServerContext* ctx) override;
};

namespace grpc_mock {

// ModelStreamInfer: every event is handed to the stream's io context, where State runs it; the
// reactor is not touched after Finish (OnDone, which deletes it, only follows Finish).
class StreamReactor final : public grpc::ServerBidiReactor<ModelInferRequest, ModelStreamInferResponse> {
 public:
  struct State {
    GrpcServer::Impl& server;
    asio::io_context& io;
    asio::steady_timer timer;
    StreamReactor* reactor;
    uint64_t id = 0;
    ModelInferRequest incoming;
    ModelStreamInferResponse outgoing;
    std::deque<Plan> plans;
    bool reads_done = false, writing = false, waiting = false, finished = false;

    State(GrpcServer::Impl& s, asio::io_context& context, StreamReactor* r)
        : server(s), io(context), timer(context), reactor(r) {}

    void finish(const grpc::Status& status) {
      if (finished) return;
      finished = true;
      timer.cancel();
      reactor->Finish(status);
      server.leave(id);
    }
    void on_read(bool ok) {
      if (finished) return;
      if (!ok) {
        reads_done = true;
      } else {
        plans.push_back(make_plan(incoming, server.state, true));
        incoming.Clear();
        reactor->StartRead(&incoming);
      }
      next();
    }
    void on_write_done(bool ok) {
      writing = false;
      if (finished) return;
      if (!ok) return finish(grpc::Status(grpc::StatusCode::CANCELLED, "client gone"));
      Plan& plan = plans.front();
      if (++plan.next >= plan.responses()) plans.pop_front();
      next();
    }
    // Sends the next response when it is due, or ends the stream when nothing is left.
    void next() {
      if (writing || waiting || finished) return;
      if (plans.empty()) {
        if (reads_done) finish(grpc::Status::OK);
        return;
      }
      Plan& plan = plans.front();
      if (!plan.error.empty()) return write();
      waiting = true;
      timer.expires_at(plan.arrival + plan.due(plan.next));
      timer.async_wait([this, keep = self](const boost::system::error_code& ec) {
        waiting = false;
        if (!ec) write();
      });
    }
    void write() {
      const Plan& plan = plans.front();
      outgoing.Clear();
      if (!plan.error.empty()) {
        outgoing.set_error_message(plan.error);
      } else {
        fill_response(plan, plan.next, plan.next + 1 >= plan.responses(), *outgoing.mutable_infer_response());
      }
      writing = true;
      reactor->StartWrite(&outgoing);
    }
    std::shared_ptr<State> self;  // set once made; dropped when the reactor is done
  };

  StreamReactor(GrpcServer::Impl& server, asio::io_context& io) : state_(std::make_shared<State>(server, io, this)) {
    state_->self = state_;
    std::weak_ptr<State> weak = state_;
    const std::optional<uint64_t> id = server.enter([weak, &io] {
      asio::post(io, [weak] {
        if (auto s = weak.lock()) s->finish(grpc::Status(grpc::StatusCode::CANCELLED, "server stopping"));
      });
    });
    if (!id) {
      state_->finished = true;
      Finish(grpc::Status(grpc::StatusCode::UNAVAILABLE, "server stopping"));
      return;
    }
    state_->id = *id;
    StartRead(&state_->incoming);
  }

  void OnReadDone(bool ok) override {
    asio::post(state_->io, [s = state_, ok] { s->on_read(ok); });
  }
  void OnWriteDone(bool ok) override {
    asio::post(state_->io, [s = state_, ok] { s->on_write_done(ok); });
  }
  void OnCancel() override {
    asio::post(state_->io, [s = state_] { s->finish(grpc::Status(grpc::StatusCode::CANCELLED, "cancelled")); });
  }
  void OnDone() override {
    asio::post(state_->io, [s = state_] { s->self.reset(); });
    delete this;
  }

 private:
  std::shared_ptr<State> state_;
};

}  // namespace grpc_mock

grpc::ServerBidiReactor<inference::ModelInferRequest, inference::ModelStreamInferResponse>*
GrpcServer::Impl::ModelStreamInfer(grpc::CallbackServerContext*) {
  return new gm::StreamReactor(*this, next_context());
}

GrpcServer::GrpcServer(const ServerState& state, std::function<boost::asio::io_context&()> next_context)
    : impl_(std::make_unique<Impl>(state, std::move(next_context))) {}

GrpcServer::~GrpcServer() { stop(); }

void GrpcServer::start(const std::string& host, uint16_t port) {
  grpc::ServerBuilder builder;
  const bool ipv6 = host.find(':') != std::string::npos;
  const std::string address = (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
  builder.AddListeningPort(address, grpc::InsecureServerCredentials(), &impl_->port);
  builder.RegisterService(impl_.get());
  builder.SetMaxReceiveMessageSize(-1);
  impl_->server = builder.BuildAndStart();
  if (!impl_->server || impl_->port == 0) throw std::runtime_error("gRPC: cannot listen on " + address);
}

void GrpcServer::stop() {
  if (!impl_->server) return;
  std::vector<std::function<void()>> cancels;
  {
    std::lock_guard lock(impl_->mu);
    impl_->stopping = true;
    for (auto& entry : impl_->live) cancels.push_back(entry.second);
  }
  for (auto& cancel : cancels) cancel();
  const std::chrono::nanoseconds wall(wall_now_ns());
  impl_->server->Shutdown(std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(wall + std::chrono::seconds(2))));
  impl_->server.reset();
}

uint16_t GrpcServer::port() const { return static_cast<uint16_t>(impl_->port); }

}  // namespace aiperf::mock
