// Fakes of the worker core's links (services/worker/worker_ports.h) for unit tests: what the
// core sends is kept for the test to read; posted work runs when the test says the event-loop
// pass is over; spins move a manual clock instead of a CPU. Header-only.
#pragma once
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fakes/manual_timers.h"
#include "worker_ports.h"

namespace aiperf::testing {

class FakeWorkerLinks final : public worker::WorkerLinks {
 public:
  void send_credit_message(const proto::CreditMessage& msg) override { credit_messages.push_back(msg); }
  void ask_conversation(const std::string& conversation_id) override { asked.push_back(conversation_id); }
  bool send_raw_records(const proto::RawRecordBatch& batch) override {
    if (!accept_raw) return false;
    raw_batches.push_back(batch);
    return true;
  }
  void post(std::function<void()> fn) override { posted.push_back(std::move(fn)); }

  // Ends the event-loop pass: runs what was posted (and what that posts) in order.
  void end_pass() {
    while (!posted.empty()) {
      std::vector<std::function<void()>> now;
      now.swap(posted);
      for (auto& fn : now) fn();
    }
  }
  // Every credit return sent so far, in order.
  std::vector<proto::CreditReturn> returns() const {
    std::vector<proto::CreditReturn> out;
    for (const auto& m : credit_messages)
      if (m.has_returns()) out.insert(out.end(), m.returns().returns().begin(), m.returns().returns().end());
    return out;
  }
  // Every raw record sent so far, in order.
  std::vector<proto::RawRecord> records() const {
    std::vector<proto::RawRecord> out;
    for (const auto& b : raw_batches) out.insert(out.end(), b.records().begin(), b.records().end());
    return out;
  }

  std::vector<proto::CreditMessage> credit_messages;
  std::vector<std::string> asked;
  std::vector<proto::RawRecordBatch> raw_batches;
  std::vector<std::function<void()>> posted;
  bool accept_raw = true;  // false: as if no record processor were connected
};

// A spin takes no CPU: the manual clock jumps to its end. Each spin's target is kept.
class FakeSpinner final : public worker::Spinner {
 public:
  explicit FakeSpinner(ManualClock& clock) : clock_(clock) {}
  void spin_until(Nanos steady_ns) override {
    spins.push_back(steady_ns);
    clock_.set(std::max(steady_ns, clock_.steady_now()));
  }
  std::vector<Nanos> spins;

 private:
  ManualClock& clock_;
};

}  // namespace aiperf::testing
