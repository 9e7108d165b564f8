// Worker: turns credits into HTTP requests, on one thread. The rules are WorkerCore's
// (worker_core.h); this process gives it its ports. The io thread runs an Asio io_context that
// owns the core, the HttpClient (HttpTransport) and the worker's ZeroMQ sockets (credits,
// conversations, raw results; each watched through its ZMQ_FD, see ZmqWatch), so a finished
// request is recorded, returned and, with standby credits, replaced without a hand-over
// between threads. The service's reactor thread only takes commands and passes the
// configuration over.
#pragma once
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <zmq.hpp>

#include "asio_timers.h"
#include "bus/channel.h"
#include "dataset.pb.h"
#include "endpoints/endpoint.h"
#include "http/http_client.h"
#include "http_transport.h"
#include "service/service.h"
#include "worker_core.h"
#include "worker_ports.h"
#include "zmq_watch.h"

namespace aiperf::worker {

class WorkerService final : public service::Service, private WorkerLinks {
 public:
  WorkerService(service::Identity identity, bus::Endpoints endpoints);
  ~WorkerService() override;

 private:
  // Reactor thread: checks the configuration, then hands it to the io thread.
  void on_configure(const config::RunConfig& config) override;
  void configure(const config::RunConfig& config, const endpoints::EndpointInfo* endpoint,
                 const http::ClientOptions& opts, bool first);

  // Everything below runs on the io thread.
  void on_credit_socket();
  void on_dataset_socket();
  // WorkerLinks, on the sockets and the io_context.
  void send_credit_message(const proto::CreditMessage& msg) override;
  void ask_conversation(const std::string& conversation_id) override;
  bool send_raw_records(const proto::RawRecordBatch& batch) override;
  void post(std::function<void()> fn) override;

  // Reactor thread only.
  bool configured_ = false;

  // io thread from here on.
  bus::Channel<proto::CreditMessage> credit_;
  bus::Channel<proto::ConversationRequest, proto::ConversationResponse> dataset_;
  bus::Channel<proto::RawRecordBatch> raw_;

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::unique_ptr<ZmqWatch> credit_watch_;
  std::unique_ptr<ZmqWatch> dataset_watch_;
  AsioTimers timers_;
  CpuSpinner spinner_;
  HttpTransport transport_;  // opened at the first configuration
  WorkerCore core_;
  std::thread io_thread_;
};

}  // namespace aiperf::worker
