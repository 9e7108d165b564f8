// EngineModel: a deterministic model of a continuous-batching inference engine, so the mock's
// latencies respond to load (--engine-slots; docs/user-guide.md "Engine model" has the formulas).
//
// The model, in time units of nanoseconds that the caller supplies (no clock inside):
//   - `slots` sequences run at once; more wait in a FIFO queue (at most `max_queue`, else the
//     request is refused);
//   - a sequence admitted to a slot at time t prefills until t + prompt_tokens / prefill rate and
//     emits its first token then (prefills run side by side, they do not slow decoding);
//   - the decode batch runs steps back to back while any sequence decodes; a step that starts
//     with n decoding sequences lasts step_base + n * step_per_seq and gives each of them one
//     token. A sequence whose prefill ends while a step runs joins at the next step;
//   - a sequence that has all its tokens leaves its slot at once, and the oldest waiting request
//     takes the slot (its prefill starts at that moment).
// Ties at the same instant resolve in this order: the step ends, prefills end (in admission
// order), waiting requests are admitted, the next step starts. So with 2 slots and 4 requests
// arriving together, requests 3 and 4 get their first token exactly at requests 1-2's
// completion + their own prefill.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace aiperf::mock {

// The model's parameters (aiperf-mock-server --engine-*). slots == 0: no engine, the mock keeps
// its scripted --ttft/--itl latencies.
struct EngineSpec {
  unsigned slots = 0;
  std::optional<unsigned> max_queue;   // unset: unbounded; 0: refuse whenever every slot is busy
  double prefill_tokens_per_s = 20000;  // per sequence
  double step_ms = 5.0;                 // decode step: fixed part
  double step_per_seq_ms = 0.25;        // decode step: added per decoding sequence

  bool enabled() const { return slots > 0; }
};

// "" when `spec` is usable, else a message naming the offending option.
std::string check_engine_spec(const EngineSpec& spec);

// What happened to one sequence at one instant: it now has `tokens` tokens emitted in total
// (the first one at the end of its prefill), and `finished` when that was its last. The first
// token's event also tells how long the request waited for a slot and how long it prefilled.
struct EngineEvent {
  uint64_t id = 0;
  int64_t time_ns = 0;
  int tokens = 0;
  bool finished = false;
  int64_t queued_ns = 0;   // tokens == 1 only
  int64_t prefill_ns = 0;  // tokens == 1 only
};

// A snapshot for /metrics.
struct EngineCounts {
  size_t running = 0;  // in a slot: prefilling or decoding
  size_t waiting = 0;  // queued for a slot
};

class EngineModel {
 public:
  explicit EngineModel(const EngineSpec& spec);

  // A request arrives at `now_ns` (>= every earlier time given): queued, and admitted at once
  // when a slot is free. Its id, or nullopt when the queue is full (the caller answers 429).
  // `output_tokens` >= 1. Events it causes at `now_ns` (a prefill of zero length) are
  // returned by the next advance().
  std::optional<uint64_t> submit(int64_t now_ns, int prompt_tokens, int output_tokens);

  // Runs the model up to and including `now_ns`; the events in time order.
  std::vector<EngineEvent> advance(int64_t now_ns);

  // The instant of the next event, nullopt when idle. advance(next_event_ns()) makes progress.
  std::optional<int64_t> next_event_ns() const;

  // The client went away: the sequence leaves its slot or the queue at `now_ns` (a waiting
  // request may take the slot). Unknown or finished ids are ignored.
  void cancel(int64_t now_ns, uint64_t id);

  EngineCounts counts() const { return {prefilling_.size() + decoding_.size(), waiting_.size()}; }

  // Prefill duration of a prompt, and the duration of a decode step of n sequences, in ns.
  int64_t prefill_ns(int prompt_tokens) const;
  int64_t step_ns(size_t n) const;

 private:
  struct Sequence {
    uint64_t id = 0;
    int prompt_tokens = 0;
    int output_tokens = 0;
    int emitted = 0;
    int64_t arrival = 0;
    int64_t admitted = 0;     // valid once admitted
    int64_t prefill_end = 0;  // valid once admitted
  };

  void settle(int64_t t);  // admissions and the next step at instant t
  void process(int64_t t, std::vector<EngineEvent>& events);
  void emit(Sequence& s, int64_t t, std::vector<EngineEvent>& events);

  EngineSpec spec_;
  int64_t now_ = 0;
  uint64_t next_id_ = 1;
  std::deque<Sequence> waiting_;
  std::vector<Sequence> prefilling_;  // admission order
  std::vector<Sequence> decoding_;    // join order
  std::optional<int64_t> step_end_;   // a step is running until then
  size_t step_members_ = 0;           // decoding_[0, step_members_) are in the running step
};

}  // namespace aiperf::mock
