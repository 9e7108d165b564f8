// A CreditSink for PhaseRunner tests: records credits, picks the least-loaded of its workers,
// and runs timers only when the test advances its fake clock.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "phase_runner.h"

namespace aiperf::timing::testing {

using proto::Credit;
using proto::CreditReturn;

// n conversations "c0".."c{n-1}" of `turns` turns each.
inline std::vector<ConversationInfo> conversations(int n, uint32_t turns = 1) {
  std::vector<ConversationInfo> out;
  for (int i = 0; i < n; ++i) out.push_back({"c" + std::to_string(i), turns});
  return out;
}

struct FakeSink : aiperf::timing::CreditSink {
  std::vector<std::string> workers{"w0", "w1"};
  std::map<std::string, int> load;
  std::vector<std::pair<std::string, Credit>> sent;
  std::vector<uint64_t> cancelled;
  std::vector<std::pair<std::string, uint64_t>> revoked;   // (worker, credit id)
  std::vector<std::pair<std::string, uint64_t>> promoted;  // (worker, credit id)

  std::string pick_worker() override {
    if (workers.empty()) return "";
    std::string best = workers[0];
    for (const auto& w : workers)
      if (load[w] < load[best]) best = w;
    return best;
  }
  void send(const std::string& w, const Credit& c) override {
    ++load[w];
    sent.emplace_back(w, c);
  }
  void cancel(const std::string&, const std::vector<uint64_t>& ids) override {
    cancelled.insert(cancelled.end(), ids.begin(), ids.end());
  }
  void revoke(const std::string& w, const std::vector<uint64_t>& ids) override {
    for (uint64_t id : ids) revoked.emplace_back(w, id);
  }
  void promote(const std::string& w, uint64_t id) override { promoted.emplace_back(w, id); }
  // Fake time: timers run when the test advances the clock.
  int64_t now = 0;
  std::multimap<int64_t, std::function<void()>> timers;
  void call_at(int64_t at, std::function<void()> fn) override { timers.emplace(at, std::move(fn)); }
  int64_t now_ns() override { return now; }
  int64_t wall_ns() override { return 1'000'000 + now; }
  void advance_to(int64_t t) {
    while (!timers.empty() && timers.begin()->first <= t) {
      auto it = timers.begin();
      now = it->first;
      auto fn = std::move(it->second);
      timers.erase(it);
      fn();
    }
    now = t;
  }
  CreditReturn ret(size_t i, bool cancelled_flag = false) {
    --load[sent[i].first];
    CreditReturn r;
    r.set_credit_id(sent[i].second.id());
    r.set_phase(sent[i].second.phase());
    r.set_cancelled(cancelled_flag);
    return r;
  }
};

}  // namespace aiperf::timing::testing
