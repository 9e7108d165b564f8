#include "worker_service.h"

#include <sys/prctl.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <stdexcept>
#include <utility>

#include <boost/asio/post.hpp>

#include "bus/socket.h"
#include "time/clock.h"
#include "util/fd_limit.h"

namespace aiperf::worker {

WorkerService::WorkerService(service::Identity identity, bus::Endpoints endpoints)
    : Service(std::move(identity), std::move(endpoints)),
      credit_(bus::make_socket(zmq::socket_type::dealer), "worker credits"),
      dataset_(bus::make_socket(zmq::socket_type::dealer), "worker conversations"),
      raw_(bus::make_socket(zmq::socket_type::push), "worker raw records"),
      work_(boost::asio::make_work_guard(io_)),
      timers_(io_),
      transport_(io_),
      core_(this->identity().id, *this, transport_, timers_, spinner_) {
  credit_.socket().set(zmq::sockopt::routing_id, this->identity().id);
  bus::connect(credit_.socket(), this->endpoints().credit);
  bus::connect(dataset_.socket(), this->endpoints().dataset);
  // Records go only to record processors that are connected: a dead one's pipe would
  // otherwise keep taking its share (lost with it) while ZeroMQ tries to reconnect.
  raw_.socket().set(zmq::sockopt::immediate, 1);
  if (!this->endpoints().raw_direct(0))
    bus::connect(raw_.socket(), this->endpoints().raw_frontend);  // else at configure
  credit_watch_ = std::make_unique<ZmqWatch>(io_, credit_.socket(), [this] { on_credit_socket(); });
  dataset_watch_ = std::make_unique<ZmqWatch>(io_, dataset_.socket(), [this] { on_dataset_socket(); });
  // The sockets belong to the io thread from here on (thread start is the memory barrier
  // ZeroMQ asks for when a socket changes threads).
  io_thread_ = std::thread([this] {
    prctl(PR_SET_TIMERSLACK, 1UL);  // timer slack is per thread: precise send times
    credit_watch_->start();
    dataset_watch_->start();
    io_.run();
  });
}

WorkerService::~WorkerService() {
  work_.reset();
  io_.stop();
  if (io_thread_.joinable()) io_thread_.join();
  transport_.close();  // requests it ends call back into the core, still whole here
}

void WorkerService::on_configure(const config::RunConfig& config) {
  const endpoints::EndpointInfo* endpoint = endpoints::find_endpoint(config.endpoint.type);
  if (!endpoint) throw std::runtime_error("unknown endpoint type " + config.endpoint.type);
  http::ClientOptions opts;
  switch (config.endpoint.connection_reuse_strategy) {
    case config::ConnectionReuseStrategy::kPooled:
      opts.reuse = http::ConnectionReuse::kPooled;
      break;
    case config::ConnectionReuseStrategy::kNever:
      opts.reuse = http::ConnectionReuse::kNever;
      break;
    case config::ConnectionReuseStrategy::kStickyUserSessions:
      opts.reuse = http::ConnectionReuse::kStickySessions;
      break;
  }
  // As many connections as this process can open: the controller started enough workers
  // for the concurrency (cli/connection_plan.cpp), so none of them queues its own requests.
  const uint64_t capacity = util::connection_capacity(util::raise_fd_limit());
  opts.connection_limit = config.endpoint.connection_limit ? std::min(capacity, config.endpoint.connection_limit) : capacity;
  opts.local_addresses = config.endpoint.local_addresses;
  opts.keep_response_headers =
      config.output.export_http_trace || config.output.export_level == config::ExportLevel::kRaw;
  opts.verify_tls = config.endpoint.verify_tls;
  const bool first = !std::exchange(configured_, true);
  // Synchronously, so the timing service has this worker's ready message before the controller
  // has the configure answer (and starts the run with the workers it knows).
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> taken = done->get_future();
  boost::asio::post(io_, [this, config, endpoint, opts, first, done] {
    configure(config, endpoint, opts, first);
    done->set_value();
  });
  if (taken.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
    throw std::runtime_error("worker io thread did not take the configuration within 10 s");
}

void WorkerService::configure(const config::RunConfig& config, const endpoints::EndpointInfo* endpoint,
                              const http::ClientOptions& opts, bool first) {
  core_.configure(config, *endpoint);
  if (!first) return;
  // Straight to every record processor; PUSH deals batches round-robin, skipping full pipes.
  for (uint32_t i = 0; i < config.service.record_processors; ++i) {
    if (auto direct = endpoints().raw_direct(i)) bus::connect(raw_.socket(), *direct);
  }
  std::optional<VideoJobSettings> video;
  if (endpoint->requires_polling) {
    video.emplace();
    video->timeout_seconds = config.endpoint.timeout_seconds;
    video->poll_interval_ns = static_cast<Nanos>(config.endpoint.video_poll_interval_seconds * 1e9);
    video->download_content = config.endpoint.download_video_content;
  }
  transport_.open(opts, video);
  proto::CreditMessage ready;
  ready.mutable_ready()->set_worker_id(identity().id);
  send_credit_message(ready);
}

// Sends on the credit socket; anything the send left waiting is read after (see ZmqWatch).
void WorkerService::send_credit_message(const proto::CreditMessage& msg) {
  credit_.send(msg);
  credit_watch_->drain_later();
}

void WorkerService::ask_conversation(const std::string& conversation_id) {
  proto::ConversationRequest req;
  req.set_conversation_id(conversation_id);
  dataset_.send(req);
  dataset_watch_->drain_later();
}

// Never blocks the io thread: false when no record processor is connected (not yet, or every
// one died).
bool WorkerService::send_raw_records(const proto::RawRecordBatch& batch) {
  return raw_.send(batch, zmq::send_flags::dontwait);
}

void WorkerService::post(std::function<void()> fn) { boost::asio::post(io_, std::move(fn)); }

void WorkerService::on_credit_socket() {
  for (;;) {
    proto::CreditMessage msg;
    const bus::Received got = credit_.receive(msg);
    if (got == bus::Received::kNone) return;
    if (got == bus::Received::kMessage) core_.on_credit_message(msg, steady_now_ns());
  }
}

// A response of another version is dropped (counted by the channel); the conversation's deadline
// then fails its credits.
void WorkerService::on_dataset_socket() {
  for (;;) {
    proto::ConversationResponse resp;
    const bus::Received got = dataset_.receive(resp);
    if (got == bus::Received::kNone) return;
    if (got == bus::Received::kMessage) core_.on_conversation(resp);
  }
}

}  // namespace aiperf::worker
