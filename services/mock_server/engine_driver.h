// EngineDriver: runs one EngineModel in real time for the whole server. A thread of its own wakes
// at each model event and hands every sequence's progress to the listener given with it (a
// Session posts it to its own io thread). Every call is thread-safe.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "engine_model.h"

namespace aiperf::mock {

class EngineDriver {
 public:
  // Called on the driver thread, with the driver's lock held: must only hand the event on
  // (post it), never call back into the driver.
  using Listener = std::function<void(const EngineEvent&)>;

  explicit EngineDriver(const EngineSpec& spec);
  ~EngineDriver();
  EngineDriver(const EngineDriver&) = delete;
  EngineDriver& operator=(const EngineDriver&) = delete;

  // A request enters the engine now. Its sequence id, or nullopt when the queue is full.
  std::optional<uint64_t> submit(int prompt_tokens, int output_tokens, Listener listener);

  // The sequence leaves the engine now (client gone, response cut short); no further events.
  void cancel(uint64_t id);

  EngineCounts counts() const;
  const EngineSpec& spec() const { return spec_; }

  // Stops the thread and drops every listener; no listener runs after it returns. Idempotent.
  void stop();

 private:
  using Clock = std::chrono::steady_clock;

  int64_t now_ns() const { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - epoch_).count(); }
  void advance_locked(int64_t now);  // runs the model to `now`, hands events to listeners
  void run();

  const EngineSpec spec_;
  const Clock::time_point epoch_ = Clock::now();
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  EngineModel model_;
  std::unordered_map<uint64_t, Listener> listeners_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once everything above exists
};

}  // namespace aiperf::mock
