// Worker: turns credits into HTTP requests, on one thread. The io thread runs an Asio
// io_context that owns the HttpClient and the worker's ZeroMQ sockets (credits, conversations,
// raw results; each watched through its ZMQ_FD, see ZmqWatch), so a finished request is
// recorded, returned and, with standby credits, replaced without a hand-over between threads.
// The service's reactor thread only takes commands and passes the configuration over.
//
// Every credit is returned exactly once, after its record has been queued for sending.
// Returns of one io_context pass travel together; where they may wait (Credits.
// return_within_ns) they are held up to that long. Standby credits (proto Credit.standby) wait
// here, unsent, and the end of one of this worker's sessions starts the oldest at once; the
// timing service learns it from CreditReturns.started.
#pragma once
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <zmq.hpp>

#include "credit.pb.h"
#include "dataset.pb.h"
#include "endpoints/endpoint.h"
#include "http/http_client.h"
#include "raw_record.pb.h"
#include "service/service.h"
#include "time/send_lead.h"
#include "video_job_runner.h"
#include "zmq_watch.h"

namespace aiperf::worker {

class WorkerService final : public service::Service {
 public:
  WorkerService(service::Identity identity, bus::Endpoints endpoints);
  ~WorkerService() override;

 private:
  struct InFlight {
    proto::Credit credit;
    int64_t received_perf_ns = 0;
    std::string x_request_id;
    std::string model;
    std::string payload;
    std::string input_text;  // endpoints::input_text of what was sent
    const proto::Conversation* conversation = nullptr;
    std::vector<const proto::Turn*> sent_turns;  // history (if any) + the current turn
    std::unique_ptr<proto::Turn> busted_turn;    // --cache-bust: the marked first user turn sent_turns points to
  };

  // Reactor thread: checks the configuration, then hands it to the io thread.
  void on_configure(const config::RunConfig& config) override;
  void configure(const config::RunConfig& config, const endpoints::EndpointInfo* endpoint,
                 const http::ClientOptions& opts, bool first);

  // Everything below runs on the io thread.
  void on_credit_socket();
  void on_dataset_socket();
  void take_standby(proto::Credit credit);  // holds it until a slot frees here
  void start_standby(proto::Phase phase);   // a session of `phase` ended here
  void start_standby(std::deque<proto::Credit>::iterator it, bool notify);
  void on_cancel(const proto::CancelCredits& cancel);
  void handle_credit(proto::Credit credit, int64_t received_perf_ns);
  void ask_conversation(const std::string& id);
  void dispatch(InFlight job);  // builds the request and starts it
  void start_request(uint64_t key, const proto::Credit& credit, http::Request req, http::SendOptions sopts);
  void spin_and_send(int64_t send_at, uint64_t key, const proto::Credit& credit, http::Request req,
                     http::SendOptions sopts);
  void send_request(uint64_t key, const proto::Credit& credit, http::Request req, http::SendOptions sopts);
  void complete(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns);
  void finish(uint64_t key, http::Result&& result);
  void fail_credits(std::vector<std::pair<proto::Credit, int64_t>>& credits, const std::string& type,
                    const std::string& message);
  void remember_turn(const InFlight& job, const proto::RawRecord& rec);
  void add_return(uint64_t credit_id, proto::Phase phase, bool cancelled, bool revoked, const std::string& error);
  void schedule_returns();    // sends returns_ at the end of this pass, or within return_within_ns_
  void flush_returns();       // sends returns_, if anything is in it
  void arm_raw_flush();  // flush_raw_records() in kRawFlushNs, unless already armed
  void flush_raw_records();   // sends raw_batch_, if anything is in it
  void send_credit_message(const proto::CreditMessage& msg);

  // Reactor thread only.
  bool configured_ = false;

  // io thread from here on.
  std::optional<config::RunConfig> config_;
  const endpoints::EndpointInfo* endpoint_ = nullptr;
  std::vector<std::string> urls_;

  zmq::socket_t credit_;
  zmq::socket_t dataset_;
  zmq::socket_t raw_;

  std::unordered_map<std::string, std::unique_ptr<proto::Conversation>> conversations_;
  // Credits whose conversation was asked of the dataset service, with when it was asked.
  struct AwaitingConversation {
    std::vector<std::pair<proto::Credit, int64_t>> credits;  // credit, received (steady ns)
    int64_t asked_ns = 0;
  };
  std::unordered_map<std::string, AwaitingConversation> awaiting_conversation_;
  std::unordered_map<uint64_t, InFlight> in_flight_;  // key: local request sequence
  // Multi-turn sessions: earlier user turns and the assistant's answers, keyed by
  // x_correlation_id, resent with every later turn (AIPerf §3.13); dropped after the last turn.
  std::unordered_map<std::string, std::vector<proto::Turn>> history_;
  uint64_t next_key_ = 0;
  std::deque<proto::Credit> standby_;  // standby credits not started, in the order issued
  bool standby_phase_ = false;         // standby credits came since return_within_ns_ was set
  // Turns sent without history: their payload and input text are the same every time, so
  // built once (conversations_ owns the turns).
  struct Prepared {
    std::string payload;
    std::string input_text;
  };
  std::unordered_map<const proto::Turn*, Prepared> prepared_;
  bool export_headers_ = false;  // HTTP headers go into raw records (trace or raw export)

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::unique_ptr<ZmqWatch> credit_watch_;
  std::unique_ptr<ZmqWatch> dataset_watch_;
  std::unique_ptr<http::HttpClient> client_;
  std::unique_ptr<VideoJobRunner> video_jobs_;  // polled job types (video_generation); after client_: ends first
  std::unordered_map<uint64_t, http::CancelHandlePtr> cancels_;
  std::unordered_map<uint64_t, uint64_t> credit_to_key_;
  std::unordered_map<uint64_t, std::shared_ptr<boost::asio::steady_timer>> cancel_timers_;
  // Credits waiting for their intended send time; cancelling one completes it as cancelled
  // without sending.
  std::unordered_map<uint64_t, std::shared_ptr<boost::asio::steady_timer>> send_timers_;
  bool send_first_token_ = false;  // prefill concurrency configured: report first chunks
  proto::RawRecordBatch raw_batch_;  // finished records not yet sent
  boost::asio::steady_timer raw_flush_timer_;
  bool raw_flush_armed_ = false;
  proto::CreditMessage returns_;     // credit returns not yet sent
  int64_t return_within_ns_ = 0;     // Credits.return_within_ns of the latest credits
  boost::asio::steady_timer returns_timer_;
  bool returns_timer_armed_ = false;
  bool returns_posted_ = false;      // a flush at the end of this pass is queued
  SpinBudget spin_budget_;
  bool warned_clock_ = false;        // the clock-disagreement warning was logged
  std::thread io_thread_;
};

}  // namespace aiperf::worker
