// Thread-safe cache of BPE results per pre-token, sharded so concurrent encoders rarely
// contend. Each shard is cleared when it reaches its cap, bounding memory.
#pragma once
#include <array>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tokenizer/tokenizer.h"

namespace aiperf::tok {

// Pre-tokens longer than this are rarely repeated, so they are not cached (HF uses 256 too).
inline constexpr size_t kMaxCachedPieceBytes = 256;

class BpeCache {
 public:
  // Appends the cached ids of `key` to `out`; false when absent.
  bool lookup(std::string_view key, std::vector<TokenId>& out) const {
    size_t h = std::hash<std::string_view>{}(key);
    Shard& shard = shards_[h % kShards];
    std::lock_guard lock(shard.mu);
    auto it = shard.map.find(key);
    if (it == shard.map.end()) return false;
    out.insert(out.end(), it->second.begin(), it->second.end());
    return true;
  }

  void insert(std::string_view key, const TokenId* ids, size_t n) const {
    size_t h = std::hash<std::string_view>{}(key);
    Shard& shard = shards_[h % kShards];
    std::lock_guard lock(shard.mu);
    if (shard.map.size() >= kShardCapacity) shard.map.clear();
    shard.map.try_emplace(std::string(key), ids, ids + n);
  }

 private:
  static constexpr size_t kShards = 64;
  static constexpr size_t kShardCapacity = 4096;

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct Shard {
    std::mutex mu;
    std::unordered_map<std::string, std::vector<TokenId>, Hash, std::equal_to<>> map;
  };

  mutable std::array<Shard, kShards> shards_;
};

}  // namespace aiperf::tok
