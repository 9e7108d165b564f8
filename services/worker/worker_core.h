// WorkerCore: the worker's rules, without its sockets, io thread or HTTP client. It turns
// credits into requests and every finished request into one raw record and one credit return:
//  - a credit's conversation is asked of the dataset service once, however many credits wait
//    for it, and kept; credits still waiting after kConversationTimeoutNs become error records;
//  - multi-turn sessions resend their earlier user turns and the assistant's answers with every
//    later turn (AIPerf §3.13); the history is dropped after the last turn; --cache-bust marks
//    each session's first user (or system) message;
//  - a scheduled credit waits for its intended send time on a timer set kSendSpinNs early and
//    spins the rest (time/send_lead.h), within the SpinBudget;
//  - cancel_after_ns cancels the request that long after it was fully sent; CancelCredits
//    cancels credits in flight, completes those still waiting for their send time as cancelled
//    without sending, and withdraws (revokes) named standby credits;
//  - standby credits (proto Credit.standby) wait here, unsent, and the end of one of this
//    worker's sessions of the same phase starts the oldest at once (CreditReturns.started);
//  - every credit is returned exactly once, after its record was queued. Raw records travel in
//    batches of kRawBatchMax, or after kRawFlushNs; returns of one event-loop pass travel
//    together, and where they may wait (Credits.return_within_ns) up to that long.
// Single-threaded: every call, callback and timer on one thread.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "credit.pb.h"
#include "dataset.pb.h"
#include "endpoints/endpoint.h"
#include "raw_record.pb.h"
#include "time/send_lead.h"
#include "time/timers.h"
#include "worker_ports.h"

namespace aiperf::worker {

class WorkerCore {
 public:
  // Enough to make per-message costs vanish at high rates, small enough that several record
  // processors still share the load.
  static constexpr int kRawBatchMax = 64;
  // A record waits at most this long for others to share its message: records are not on the
  // hot path, and at high rates one message per record costs every process it crosses a wake-up.
  static constexpr Nanos kRawFlushNs = 5'000'000;
  static constexpr Nanos kConversationTimeoutNs = 90'000'000'000;  // AIPERF_SERVICE_COMMS_REQUEST_TIMEOUT

  // Every collaborator must outlive the core.
  WorkerCore(std::string worker_id, WorkerLinks& links, Transport& transport, Timers& timers, Spinner& spinner);
  WorkerCore(const WorkerCore&) = delete;
  WorkerCore& operator=(const WorkerCore&) = delete;

  // Before the first credit, and again for each run. `endpoint` must outlive the core.
  void configure(const config::RunConfig& config, const endpoints::EndpointInfo& endpoint);
  // Credits, CancelCredits or StartStandby from the timing service, read at `received_ns`
  // (steady); the credits are moved from.
  void on_credit_message(proto::CreditMessage& msg, Nanos received_ns);
  // The dataset service's answer to WorkerLinks::ask_conversation; moved from.
  void on_conversation(proto::ConversationResponse& resp);

  size_t in_flight() const { return in_flight_.size(); }
  size_t standby() const { return standby_.size(); }

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
    std::unique_ptr<proto::Turn> capped_turn;    // Credit.max_tokens_override: the turn sent_turns points to
  };
  // Credits whose conversation was asked of the dataset service, and that request's deadline.
  struct AwaitingConversation {
    std::vector<std::pair<proto::Credit, int64_t>> credits;  // credit, received (steady ns)
    Timers::TimerId deadline = 0;
  };
  // Turns sent without history: their payload and input text are the same every time, so
  // built once (conversations_ owns the turns).
  struct Prepared {
    std::string payload;
    std::string input_text;
  };

  // worker_core.cpp: credits, conversations, standby, cancellation, batching.
  void take_standby(proto::Credit credit);  // holds it until a slot frees here
  void start_standby(proto::Phase phase);   // a session of `phase` ended here
  void start_standby(const std::deque<proto::Credit>::iterator& it, bool notify);
  void on_cancel(const proto::CancelCredits& cancel);
  void handle_credit(proto::Credit credit, int64_t received_perf_ns);
  void ask_conversation(const std::string& id);
  void fail_credits(std::vector<std::pair<proto::Credit, int64_t>>& credits, const std::string& type,
                    const std::string& message);
  void fail_now(InFlight job, http::Error error);  // an error record without a request
  void add_return(uint64_t credit_id, proto::Phase phase, bool cancelled, bool revoked, const std::string& error);
  void schedule_returns();   // sends returns_ at the end of this pass, or within return_within_ns_
  void flush_returns();      // sends returns_, if anything is in it
  void arm_raw_flush();      // flush_raw_records() in kRawFlushNs, unless already armed
  void flush_raw_records();  // sends raw_batch_, if anything is in it

  // worker_request.cpp: one request, from its payload to its record.
  void dispatch(InFlight job);  // builds the request and starts it
  void start_request(uint64_t key, http::Request req, http::SendOptions sopts);
  void spin_and_send(Nanos send_at, uint64_t key, http::Request req, http::SendOptions sopts);
  void send_request(uint64_t key, http::Request req, http::SendOptions sopts);
  void complete(uint64_t key, http::Result&& result, int64_t policy_cancel_after_ns);
  void finish(uint64_t key, http::Result&& result);
  void remember_turn(const InFlight& job, const proto::RawRecord& rec);

  const std::string worker_id_;
  WorkerLinks& links_;
  Transport& transport_;
  Timers& timers_;
  const Clock& clock_;
  Spinner& spinner_;

  std::optional<config::RunConfig> config_;
  const endpoints::EndpointInfo* endpoint_ = nullptr;
  std::vector<std::string> urls_;
  bool export_headers_ = false;    // HTTP headers go into raw records (trace or raw export)
  bool send_first_token_ = false;  // prefill concurrency configured: report first chunks

  std::unordered_map<std::string, std::unique_ptr<proto::Conversation>> conversations_;
  std::unordered_map<std::string, AwaitingConversation> awaiting_conversation_;
  std::unordered_map<uint64_t, InFlight> in_flight_;  // key: local request sequence
  // Multi-turn sessions: earlier user turns and the assistant's answers, keyed by
  // x_correlation_id, resent with every later turn; dropped after the last turn.
  std::unordered_map<std::string, std::vector<proto::Turn>> history_;
  // dag_jsonl forks: a session's context as of a turn that forked ("<session>#<turn>"), kept
  // until each fork child's first turn has copied it.
  struct ForkContext {
    std::vector<proto::Turn> history;
    uint32_t pending = 0;
  };
  std::unordered_map<std::string, ForkContext> fork_contexts_;
  std::unordered_map<const proto::Turn*, Prepared> prepared_;
  uint64_t next_key_ = 0;
  std::deque<proto::Credit> standby_;  // standby credits not started, in the order issued
  bool standby_phase_ = false;         // standby credits came since return_within_ns_ was set

  std::unordered_map<uint64_t, http::CancelHandlePtr> cancels_;
  std::unordered_map<uint64_t, uint64_t> credit_to_key_;
  std::unordered_map<uint64_t, Timers::TimerId> cancel_timers_;  // cancel_after_ns, armed once sent
  // Credits waiting for their intended send time; cancelling one completes it as cancelled
  // without sending.
  std::unordered_map<uint64_t, Timers::TimerId> send_timers_;

  proto::RawRecordBatch raw_batch_;  // finished records not yet sent
  Timers::TimerId raw_flush_timer_ = 0;
  proto::CreditMessage returns_;  // credit returns not yet sent
  int64_t return_within_ns_ = 0;  // Credits.return_within_ns of the latest credits
  Timers::TimerId returns_timer_ = 0;
  bool returns_posted_ = false;  // a flush at the end of this pass is queued
  SpinBudget spin_budget_;
  bool warned_clock_ = false;  // the clock-disagreement warning was logged
};

}  // namespace aiperf::worker
