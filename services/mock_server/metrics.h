// Server-side Prometheus metrics: requests, tokens, and the TTFT/ITL the server actually achieved.
// Each io thread writes only its own shard, so the hot path has no contended cache lines and no
// atomic read-modify-write; /metrics sums the shards.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fault_injector.h"
#include "routes.h"

namespace aiperf::mock {

// Bucket upper bounds in seconds, shared by every latency histogram.
inline constexpr std::array<double, 15> kLatencyBuckets = {
    0.0005, 0.001, 0.0025, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0};

// One writer thread; any thread may read. Values are relaxed atomics so readers see no torn data.
class ShardCounter {
 public:
  void add(int64_t n) { value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed); }
  int64_t get() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

struct LatencyHistogram {
  std::array<ShardCounter, kLatencyBuckets.size() + 1> buckets;  // last = above every bound
  ShardCounter sum_ns;

  void observe_ns(int64_t ns);
};

struct alignas(64) MetricsShard {
  std::array<std::array<ShardCounter, kStatusCodes.size()>, kRouteCount> requests;
  std::array<ShardCounter, kFaultCount> faults;  // responses a --fault mode broke
  ShardCounter prompt_tokens;
  ShardCounter generation_tokens;  // tokens actually sent
  ShardCounter running;            // generation requests in progress
  LatencyHistogram time_to_first_token;
  LatencyHistogram inter_token_latency;
  LatencyHistogram request_latency;
  LatencyHistogram engine_queue_time;    // --engine-slots: arrival to admission into a slot
  LatencyHistogram engine_prefill_time;  // --engine-slots: admission to first token

  void count_request(Route route, int status);
};

// Shards several server processes write (--processes): created zeroed in memory shared with
// the processes forked afterwards; never freed (they live as long as the processes).
struct SharedShards {
  MetricsShard* shards = nullptr;  // nullptr: not shared
  size_t total = 0;                // shards of every process
  size_t first = 0;                // this process's first shard
};
SharedShards make_shared_shards(size_t total);

class Metrics {
 public:
  // `shard_count` writer shards of this process, private unless `shared` says where they are.
  explicit Metrics(size_t shard_count, SharedShards shared = {});

  // This process's writer shards, 0 <= index < its shard count.
  MetricsShard& shard(size_t index) { return *all_[first_ + index]; }
  // Every shard of every process, for readers summing them.
  const std::vector<MetricsShard*>& all_shards() const { return all_; }

  // Prometheus text exposition format 0.0.4.
  std::string render() const;

 private:
  std::vector<std::unique_ptr<MetricsShard>> owned_;
  std::vector<MetricsShard*> all_;
  size_t first_ = 0;
};

}  // namespace aiperf::mock
