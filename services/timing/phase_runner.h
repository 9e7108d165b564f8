// PhaseRunner: issues the credits of one credit phase (warmup or profiling) and tracks their
// returns. Pure logic: time comes from the caller, credits leave through CreditSink, so
// tests drive it with a fake clock. Semantics follow AIPerf 0.6 (spec §3):
//  - concurrency N = at most N sessions in flight; a session's turns go out one at a time,
//    turn k+1 only after turn k returned, to the same worker;
//  - request count counts turns; duration stops sending at the deadline;
//  - request rate starts one new session per arrival; with a concurrency cap an arrival
//    that finds no free slot is dropped, not queued;
//  - every credit is returned exactly once; the phase completes when sending is over and
//    nothing is in flight (or the grace period ran out and cancelled credits drained).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "credit.pb.h"

namespace aiperf::timing {

struct PhaseConfig {
  proto::Phase phase = proto::PHASE_PROFILING;
  std::optional<uint64_t> request_count;     // turns to send
  std::optional<int64_t> duration_ns;        // stop sending after this
  std::optional<uint32_t> concurrency;       // max sessions in flight (nullopt = unlimited)
  bool rate_mode = false;                    // new sessions come from arrivals, not slots
  uint32_t url_count = 1;                    // --url list size: sessions round-robin over it
};

// The dataset as the timing service sees it.
struct ConversationInfo {
  std::string id;
  uint32_t turns = 1;
};

// Where credits go; the service implements it over the ROUTER socket.
class CreditSink {
 public:
  virtual ~CreditSink() = default;
  // Least-loaded worker for a new session; empty when no worker is connected.
  virtual std::string pick_worker() = 0;
  virtual void send(const std::string& worker_id, const proto::Credit& credit) = 0;
  virtual void cancel(const std::string& worker_id, const std::vector<uint64_t>& credit_ids) = 0;
};

struct PhaseStats {
  uint64_t sent = 0;
  uint64_t completed = 0;   // returns of any kind
  uint64_t cancelled = 0;
  uint64_t errors = 0;
  bool sending_complete = false;
  bool complete = false;
  bool timeout_triggered = false;
};

class PhaseRunner {
 public:
  PhaseRunner(PhaseConfig config, std::vector<ConversationInfo> conversations, CreditSink& sink,
              std::mt19937_64 rng);

  // Starts the phase at steady time `now_ns` (wall `now_wall_ns`): fills the slots.
  void start(int64_t now_ns, int64_t now_wall_ns);
  // A new arrival in rate mode (the service's pacer calls this on schedule).
  void on_arrival(int64_t now_ns, int64_t now_wall_ns, int64_t intended_wall_ns);
  // A worker returned a credit; issues what the freed slot allows.
  void on_return(const proto::CreditReturn& ret, int64_t now_ns, int64_t now_wall_ns);
  // A worker became available: issues credits that were waiting for one.
  void on_worker_available(int64_t now_ns, int64_t now_wall_ns);
  // The duration deadline passed: stop sending.
  void stop_sending();
  // Grace expired (or the user cancelled): cancel everything in flight.
  void cancel_in_flight();
  // Drain timeout after cancellation: give up on missing returns.
  void force_complete();

  const PhaseStats& stats() const { return stats_; }
  uint64_t in_flight() const { return in_flight_.size(); }
  const PhaseConfig& config() const { return config_; }

 private:
  struct Session {
    std::string conversation_id;
    std::string correlation_id;
    uint32_t num_turns = 1;
    uint32_t next_turn = 0;
    std::string worker_id;
    uint32_t url_index = 0;
  };
  struct InFlight {
    uint64_t session;
    std::string worker_id;
  };

  bool can_send_turn(int64_t now_ns) const;
  bool start_session(int64_t now_ns, int64_t now_wall_ns, int64_t intended_wall_ns);
  void issue(uint64_t session_key, int64_t now_wall_ns, int64_t intended_wall_ns);
  void fill_slots(int64_t now_ns, int64_t now_wall_ns);
  void end_session(uint64_t session_key);
  void update_completion();
  const ConversationInfo& next_conversation();

  PhaseConfig config_;
  std::vector<ConversationInfo> conversations_;
  CreditSink& sink_;
  std::mt19937_64 rng_;
  std::vector<size_t> order_;     // shuffle order over conversations
  size_t order_pos_ = 0;
  int64_t start_ns_ = 0;
  uint64_t next_session_key_ = 0;
  uint64_t sessions_started_ = 0;   // for URL round robin
  std::unordered_map<uint64_t, Session> sessions_;     // sessions holding a slot
  std::unordered_map<uint64_t, InFlight> in_flight_;   // credit id -> owner
  std::deque<uint64_t> waiting_for_worker_;            // sessions whose next turn is due
  PhaseStats stats_;
};

}  // namespace aiperf::timing
