// Worker: turns credits into HTTP requests. Two threads:
//  - the reactor thread owns every ZeroMQ socket (credits, conversations, raw results) and
//    builds request payloads;
//  - the io thread owns the HttpClient and nothing else, so the hot path (send, receive,
//    timestamp each chunk) never waits on ZeroMQ or JSON work.
// Finished requests cross back through a mutex-guarded queue, signalled by an eventfd (or
// collected every millisecond where returns may wait: Credits.return_within_ns).
// Every credit is returned exactly once, after its record has been queued for sending.
// Standby credits (proto Credit.standby) wait here, unsent, and the end of one of this
// worker's sessions starts the oldest at once: the freed slot is refilled without a round trip
// through the timing service, which learns it from CreditReturns.started.
#pragma once
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
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
#include "time/send_lead.h"
#include "dataset.pb.h"
#include "raw_record.pb.h"
#include "endpoints/endpoint.h"
#include "http/http_client.h"
#include "service/service.h"

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
  };
  struct Start {  // a dispatched credit on its way to the io thread
    uint64_t key;
    proto::Credit credit;
    http::Request req;
    http::SendOptions sopts;
  };
  struct Done {
    uint64_t key;
    http::Result result;
    int64_t policy_cancel_after_ns = -1;  // >= 0: cancelled by --request-cancellation-rate
  };

  void on_configure(const config::RunConfig& config) override;

  void on_credit_socket();
  void on_dataset_socket();
  void on_completions();      // eventfd: the io thread finished requests
  // Records and returns every finished request; returns travel at once unless they may wait
  // (timer rounds send them) and standby credits remain to refill slots meanwhile.
  void collect_completions(bool timer_round);
  void on_cancel(const proto::CancelCredits& cancel);
  void take_standby(proto::Credit credit);  // holds it, or returns it revoked
  void ask_conversation(const std::string& id);
  void start_standby(proto::Phase phase);  // a session of `phase` ended here
  void start_standby(std::deque<proto::Credit>::iterator it, bool notify);
  void update_standby_waiting();
  void set_collect_on_timer(int64_t within_ns);
  void handle_credit(proto::Credit credit, int64_t received_perf_ns);
  void dispatch(InFlight job);  // builds the request; post_starts hands it to the io thread
  void post_starts();
  void start_on_io(uint64_t key, const proto::Credit& credit, http::Request req, http::SendOptions sopts);
  void spin_and_send(int64_t send_at, uint64_t key, const proto::Credit& credit, http::Request req,
                     http::SendOptions sopts);
  void send_on_io(uint64_t key, const proto::Credit& credit, http::Request req, http::SendOptions sopts);
  void complete_on_io(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns);
  void notify_reactor();
  void finish(uint64_t key, http::Result&& result);
  void flush_raw_records();  // sends raw_batch_, if anything is in it
  void flush_returns();      // sends returns_, if anything is in it
  void add_return(uint64_t credit_id, proto::Phase phase, bool cancelled, bool revoked, const std::string& error);
  void remember_turn(const InFlight& job, const proto::RawRecord& rec);
  void fail_credits(std::vector<std::pair<proto::Credit, int64_t>>& credits, const std::string& type,
                    const std::string& message);

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
  // Turns sent without history: their payload and input text are the same every time, so
  // built once (conversations_ owns the turns).
  struct Prepared {
    std::string payload;
    std::string input_text;
  };
  std::unordered_map<const proto::Turn*, Prepared> prepared_;
  bool export_headers_ = false;  // HTTP headers go into raw records (trace or raw export)

  // io thread
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::unique_ptr<http::HttpClient> client_;                  // io thread only
  std::unordered_map<uint64_t, http::CancelHandlePtr> cancels_;  // io thread only
  std::unordered_map<uint64_t, uint64_t> credit_to_key_;       // io thread only
  std::unordered_map<uint64_t, std::shared_ptr<boost::asio::steady_timer>> cancel_timers_;  // io thread only
  // Credits waiting for their intended send time (io thread only); cancelling one completes
  // it as cancelled without sending.
  std::unordered_map<uint64_t, std::shared_ptr<boost::asio::steady_timer>> send_timers_;
  bool send_first_token_ = false;  // prefill concurrency configured: report first chunks
  proto::RawRecordBatch raw_batch_;  // finished records not yet sent (reactor thread)
  bus::Reactor::TimerId raw_flush_timer_ = 0;  // flushes raw_batch_ (0: not armed)
  proto::CreditMessage returns_;     // credit returns of the current pass (reactor thread)
  bool revoked_unsent_ = false;      // returns_ holds revoked standbys: sent without waiting
  std::vector<Start> starts_;        // dispatched this pass, not yet posted (reactor thread)
  SpinBudget spin_budget_;          // io thread only
  bool warned_clock_ = false;      // io thread: the clock-disagreement warning was logged
  std::thread io_thread_;

  // io thread -> reactor thread
  int event_fd_ = -1;
  std::atomic<bool> collect_on_timer_{false};  // the io thread does not signal completions...
  std::atomic<bool> standby_waiting_{false};   // ...unless a standby waits for a slot
  bus::Reactor::TimerId collect_timer_ = 0;
  std::mutex done_mu_;
  std::vector<Done> done_;
  std::vector<std::pair<uint64_t, proto::Phase>> first_tokens_;  // (credit id, phase)
};

}  // namespace aiperf::worker
