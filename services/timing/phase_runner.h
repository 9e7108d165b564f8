// PhaseRunner: issues the credits of one credit phase (warmup or profiling) and tracks their
// returns. Pure logic: time comes from the caller, credits and timers go through CreditSink,
// so tests drive it with fake time. Semantics follow AIPerf 0.6 (spec §3):
//  - concurrency N = at most N sessions in flight; a session's turns go out one at a time,
//    turn k+1 only after turn k returned (plus its think time), to the same worker and URL;
//  - prefill concurrency P = at most P credits waiting for their first token;
//  - request count counts turns; session count lets started sessions finish; duration stops
//    sending at the deadline;
//  - request rate starts one new session per arrival; an arrival that finds no free slot is
//    dropped, not queued; fixed schedule starts each conversation at its timestamp (queued,
//    not dropped, when a slot is busy);
//  - user-centric rate (num_users set) runs U users, each sending its next turn turn_gap = U/Q
//    after its previous one (or at once when the answer came later), and replaces each user
//    that finishes with a new one on an absolute schedule (user_centric_plan.h);
//  - every credit is returned exactly once; the phase completes when sending is over and
//    nothing is in flight (or the grace period ran out and cancelled credits drained);
//  - SPAWN branches (dag_jsonl, AIPerf 0.13's branch orchestrator): when a turn that spawns has
//    returned, its child conversations start at once as sessions of their own on the parent's
//    worker, holding no concurrency slot and never counted as sessions (request counts do count
//    their turns); the parent's join turn waits until every child of that spawn has ended, a
//    spawn on the last turn is fire-and-forget; pre-session spawns start with the parent; a fork's
//    children start the same way, their first credit naming the parent session whose context
//    (kept by that worker, Credit.fork_children) they continue.
//    Branch targets are never sampled: only roots start sessions.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "credit.pb.h"

namespace aiperf::timing {

class ShiftableTimers;

enum class Sampling { kShuffle, kSequential, kRandom };

// AGENTIC_REPLAY (agentic_replay.h): a session that resumes a trace mid-way, started at a fixed
// offset after the phase's schedule origin.
struct ReplayStart {
  size_t conversation = 0;     // index in the runner's conversations
  std::string correlation_id;  // the lane's session id (kept from warmup to profiling)
  uint32_t first_turn = 0;     // the session's first credit is this turn
  uint32_t end_turn = 0;       // sends turns first_turn .. end_turn - 1 (0 = to the last)
  int64_t offset_ns = 0;
};

struct PhaseConfig {
  proto::Phase phase = proto::PHASE_PROFILING;
  std::optional<uint64_t> request_count;     // turns to send
  std::optional<uint64_t> session_count;     // sessions to start (started ones finish)
  std::optional<int64_t> duration_ns;        // stop sending after this
  std::optional<uint32_t> concurrency;       // max sessions in flight (nullopt = unlimited)
  std::optional<uint32_t> prefill_concurrency;  // max credits awaiting a first token
  bool rate_mode = false;                    // new sessions come from arrivals, not slots
  bool fixed_schedule = false;               // new sessions start at their first timestamp
  double schedule_zero_ms = 0;               // fixed schedule: timestamp that maps to phase start
  // Trace and user schedules begin this long after the phase start, so that the first credit,
  // like every later one, reaches its worker ahead of its instant (the timing service sets
  // the workers' send lead).
  int64_t schedule_lead_ns = 0;
  uint32_t url_count = 1;                    // --url list size: sessions round-robin over it
  Sampling sampling = Sampling::kShuffle;
  std::optional<uint32_t> num_users;         // user-centric rate mode: this many users...
  double user_rate = 0;                      // ...offering this many requests/s in total
  double cancellation_rate = 0;              // percent of credits cancelled client-side
  int64_t cancellation_delay_ns = 0;         // after the request was sent
  // Single-turn concurrency phases only: this many sessions are issued beyond the concurrency
  // as standby credits (proto Credit.standby), which workers start themselves the moment one
  // of their sessions ends (the start notice comes with that session's return). A slot that
  // frees without one (the worker had none left) goes to a standby waiting elsewhere, which
  // its worker is told to start. They count as sent; sending stopped by anything but the
  // request count withdraws those not started (revoked: never sent, no record).
  uint32_t standby = 0;
  // AGENTIC_REPLAY: the phase starts these sessions instead of filling slots; with `recycle`
  // (profiling) a session that ends frees its lane (a concurrency slot, reserved until its
  // start) for a fresh session at turn 0 of the next trace; without it (warmup) nothing else
  // starts. `sampler_skip` traces of the sampling order were drawn for the lanes already.
  bool agentic = false;
  bool recycle = false;
  std::vector<ReplayStart> replay_starts = {};
  uint64_t sampler_skip = 0;
  // --system-idle-gap-cap-seconds (agentic only): with nothing in flight, pending timers move
  // earlier so the next is due within this much of the moment the system went idle.
  std::optional<int64_t> system_idle_cap_ns = {};
  std::optional<uint32_t> max_tokens_override = {};  // agentic warmup: every request asks for this many
  // Agentic profiling: an error answer holding one of these (config::is_context_overflow) ends its
  // session before its last turn, so the lane recycles (AIPerf's terminal context overflow).
  std::vector<std::string> overflow_substrings = {};
};

// A SPAWN branch: children started when the parent's turn `after_turn` has returned.
struct SpawnInfo {
  uint32_t after_turn = 0;
  std::vector<size_t> children = {};       // indices in the runner's conversations
  std::optional<uint32_t> join_turn = {};  // the parent's turn that waits for every child
  bool pre_session = false;                // started with the parent, before its first turn
  bool fork = false;                       // the children continue the parent's context (its worker keeps it)
};

// The dataset as the timing service sees it.
struct ConversationInfo {
  std::string id;
  uint32_t turns = 1;
  std::vector<double> timestamp_ms = {};  // per turn, NaN = none (empty = none at all)
  std::vector<double> delay_ms = {};      // per turn think time before it (empty = none)
  std::vector<SpawnInfo> spawns = {};
  bool branch_child = false;  // started only by a parent's spawn, never sampled
};

// Where credits and timers go; the service implements it over the ROUTER socket and reactor.
class CreditSink {
 public:
  virtual ~CreditSink() = default;
  // Least-loaded worker for a new session; empty when no worker is connected.
  virtual std::string pick_worker() = 0;
  virtual void send(const std::string& worker_id, const proto::Credit& credit) = 0;
  virtual void cancel(const std::string& worker_id, const std::vector<uint64_t>& credit_ids) = 0;
  // Withdraws standby credits the worker has not started (started ones go on).
  virtual void revoke(const std::string& worker_id, const std::vector<uint64_t>& credit_ids) = 0;
  // Has the worker start a standby credit now (a no-op if it already started it).
  virtual void promote(const std::string& worker_id, uint64_t credit_id) = 0;
  // Runs `fn` at steady time `at_ns` (at once if past).
  virtual void call_at(int64_t at_ns, std::function<void()> fn) = 0;
  // Current clocks.
  virtual int64_t now_ns() = 0;
  virtual int64_t wall_ns() = 0;
};

struct PhaseStats {
  uint64_t sent = 0;
  uint64_t completed = 0;   // returns of any kind
  uint64_t cancelled = 0;
  uint64_t errors = 0;
  uint64_t lost = 0;        // of completed and errors: held by a worker that died
  bool sending_complete = false;
  bool complete = false;
  bool timeout_triggered = false;
  uint64_t idle_jumps = 0;         // agentic: times the idle cap moved the pending timers
  int64_t idle_skipped_ns = 0;     // and by how much in all
  uint64_t context_overflows = 0;  // agentic: sessions ended early by a context-overflow answer
};

class PhaseRunner {
 public:
  PhaseRunner(PhaseConfig config, std::vector<ConversationInfo> conversations, CreditSink& sink,
              std::mt19937_64 rng);
  ~PhaseRunner();

  // Starts the phase now: fills the slots (concurrency) or schedules the trace (fixed schedule).
  void start();
  // A new arrival in rate mode, intended at wall time `intended_wall_ns`.
  void on_arrival(int64_t intended_wall_ns);
  // A worker returned a credit; issues what the freed slot allows.
  void on_return(const proto::CreditReturn& ret);
  // A worker started a standby credit in the slot of a session that ended there.
  void on_standby_started(uint64_t credit_id);
  // A worker saw the first token of a credit: frees its prefill slot.
  void on_first_token(uint64_t credit_id);
  // A worker became available: issues credits that were waiting for one.
  void on_worker_available();
  // A worker died: the credits it held will never return. Each counts as returned with an
  // error (stats().lost; the records service makes their records), its sessions end and
  // their slots go to the other workers. Its unsent standbys are withdrawn, unless the request
  // count already counted them.
  void on_worker_lost(const std::string& worker_id);
  // Changes the session concurrency limit (ramps); more slots are filled at once.
  void set_concurrency(uint32_t limit);
  // Changes the prefill concurrency limit (ramps).
  void set_prefill_concurrency(uint32_t limit);
  // The duration deadline passed: stop sending.
  void stop_sending();
  // Grace expired (or the user cancelled): cancel everything in flight.
  void cancel_in_flight();
  // Drain timeout after cancellation: give up on missing returns.
  void force_complete();

  const PhaseStats& stats() const { return stats_; }
  uint64_t in_flight() const { return in_flight_.size(); }
  uint64_t standby() const { return standby_sessions_; }  // issued standby credits not yet started
  const PhaseConfig& config() const { return config_; }

 private:
  struct Session {
    const ConversationInfo* conversation = nullptr;
    std::string correlation_id;
    uint32_t next_turn = 0;
    std::string worker_id;
    uint32_t url_index = 0;
    uint32_t turns = 0;          // turns this session sends (user-centric users may send fewer)
    int64_t next_send_ns = 0;    // user-centric: when the last turn was scheduled (steady)
    bool turn_in_flight = false;
    bool standby = false;        // issued as a standby credit, not started yet
    uint64_t credit_id = 0;      // of the turn last issued
    // Branches: a spawned child holds no slot; a joined one reports its end to its parent.
    bool child = false;
    std::optional<uint64_t> parent;
    uint32_t join_turn = 0;
    std::unordered_map<uint32_t, uint32_t> joins;  // join turn -> its children still running
    bool waiting_join = false;                     // the next turn waits for its children
    std::string fork_parent;                       // a fork child: its first turn starts from that session's
    uint32_t fork_parent_turn = 0;                 // context as of this turn
  };
  // A session that could not start yet (no free slot) and waits for one.
  struct PendingStart {
    const ConversationInfo* conversation = nullptr;
    int64_t intended_wall_ns = 0;
    std::string correlation_id = {};  // empty = a fresh UUID
    uint32_t turns = 0;          // 0 = every turn of the conversation
    int64_t scheduled_ns = 0;
    bool standby = false;
    uint32_t first_turn = 0;  // agentic: a session resuming a trace mid-way
  };
  struct InFlight {
    uint64_t session;
    std::string worker_id;
    bool awaiting_first_token = false;
  };

  bool can_send_turn() const;
  bool can_start_session() const;
  bool slot_free() const;
  bool prefill_free() const;
  // Opens a session for `conv` (sampled when null); false when nothing can start now.
  bool start_session(const PendingStart& start);
  void start_users();
  // User-centric: a user (id 0 = the next free id) starts at `at_ns` with up to `max_turns`
  // turns (0 = all) and schedules its replacement when its turns would be over.
  void schedule_user(int64_t at_ns, uint64_t user_id, uint32_t max_turns);
  // Sends the session's next turn now, or queues it until a prefill slot or worker frees.
  void turn_ready(uint64_t key, int64_t intended_wall_ns);
  void send_or_queue(uint64_t session_key, int64_t intended_wall_ns);
  void issue(uint64_t session_key, int64_t intended_wall_ns);
  void next_turn_after_return(uint64_t session_key);
  // Sends the session's next turn after its timestamp or think time.
  void schedule_turn(uint64_t session_key);
  // Starts the children of `spawn` for session `parent_key`; false when the parent ended meanwhile.
  bool spawn_children(uint64_t parent_key, const SpawnInfo& spawn);
  // A joined child of `parent_key` ended: the parent's join turn goes once every child has.
  void child_ended(uint64_t parent_key, uint32_t join_turn);
  void drain_ready();
  void fill_slots();
  void schedule_trace();
  void end_session(uint64_t session_key);
  std::string pick_standby_worker() const;
  bool promote_standby();
  void revoke_standbys();
  void update_completion();
  const ConversationInfo& next_conversation();
  // Agentic replay: the replay starts at their offsets, the idle cap, and the one timer port
  // (shiftable when agentic, the sink's otherwise); fn gets the deadline it ran for.
  void schedule_replay();
  void enforce_idle_cap(bool after_return);
  void defer(int64_t at_ns, std::function<void(int64_t)> fn);
  int64_t wall_at(int64_t steady_ns) const { return start_wall_ns_ + (steady_ns - start_ns_); }

  PhaseConfig config_;
  std::vector<ConversationInfo> conversations_;
  CreditSink& sink_;
  std::mt19937_64 rng_;
  std::vector<size_t> order_;  // shuffle order over the root conversations
  size_t order_pos_ = 0;
  int64_t start_ns_ = 0;
  // Time zero of trace and user schedules.
  int64_t schedule_origin_ns() const { return start_ns_ + config_.schedule_lead_ns; }
  uint64_t next_session_key_ = 0;
  uint64_t sessions_started_ = 0;
  uint64_t awaiting_first_token_ = 0;
  uint64_t next_credit_id_ = 0;     // sent can shrink (revoked standbys); ids never repeat
  uint64_t standby_sessions_ = 0;   // sessions_ issued as standby credits, not started yet
  uint64_t child_sessions_ = 0;     // sessions_ started by a spawn (no slot)
  bool standbys_counted_ = false;   // sending stopped at the request count: every standby runs
  std::unordered_map<uint64_t, Session> sessions_;     // sessions holding a slot, and standbys
  struct WorkerSlots {
    uint64_t running = 0;  // sessions holding a slot there
    std::set<uint64_t> standby;  // sessions whose standby credits wait there, oldest first
  };
  std::unordered_map<std::string, WorkerSlots> by_worker_;
  std::unordered_map<uint64_t, InFlight> in_flight_;   // credit id -> owner
  std::deque<std::pair<uint64_t, int64_t>> ready_;     // (session, intended wall) waiting to send
  std::deque<PendingStart> backlog_;                   // due but no slot yet (trace, users)
  std::deque<uint64_t> continuations_;                 // rate mode: next turns waiting for an arrival
  uint64_t trace_pending_ = 0;                         // fixed schedule entries not yet due
  int64_t start_wall_ns_ = 0;
  int64_t turn_gap_ns_ = 0;                            // user-centric: U / Q
  uint64_t next_user_id_ = 1;
  PhaseStats stats_;
  std::unique_ptr<ShiftableTimers> timers_;  // agentic only
  uint64_t replay_pending_ = 0;              // replay starts not yet due (each holds its lane)
  std::optional<int64_t> idle_since_ns_;     // agentic idle cap: when the system went idle
};

}  // namespace aiperf::timing
