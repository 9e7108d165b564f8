#include "weka_reconstruct.h"

#include <algorithm>
#include <stdexcept>

namespace aiperf::dataset {
namespace {

int64_t common_prefix(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t n = std::min(a.size(), b.size());
  size_t i = 0;
  while (i < n && a[i] == b[i]) ++i;
  return static_cast<int64_t>(i);
}

// Block accounting of one turn, shared by advance_turn and the cap planner.
struct Geometry {
  int64_t lcp = 0, covered = 0, new_blocks = 0, tail = 0;
};

Geometry geometry(const std::vector<int64_t>& prev, const std::vector<int64_t>& curr, int64_t in_tokens, int64_t bs) {
  Geometry g;
  const int64_t full = in_tokens / bs;
  g.covered = std::min<int64_t>(static_cast<int64_t>(curr.size()), full);
  const int64_t missing = std::max<int64_t>(0, (full - static_cast<int64_t>(curr.size())) * bs);
  g.lcp = common_prefix(prev, curr);
  g.new_blocks = std::max<int64_t>(0, g.covered - g.lcp);
  g.tail = in_tokens % bs + missing;
  return g;
}

std::vector<int64_t> slice(const std::vector<int64_t>& v, int64_t from, int64_t to) {
  from = std::clamp<int64_t>(from, 0, static_cast<int64_t>(v.size()));
  to = std::clamp<int64_t>(to, from, static_cast<int64_t>(v.size()));
  return {v.begin() + from, v.begin() + to};
}

}  // namespace

int64_t WekaReconstructor::token_count() const {
  int64_t n = 0;
  for (const auto& s : segments_) n += static_cast<int64_t>(s.blocks.size()) * block_size_ + s.tail;
  return n;
}

void WekaReconstructor::init_turn_0(const std::vector<int64_t>& hash_ids, int64_t in_tokens, int64_t tool_tokens,
                                    int64_t system_tokens, const std::string& seed) {
  const int64_t bs = block_size_;
  const int64_t full = in_tokens / bs;
  const int64_t covered = std::min<int64_t>(full, static_cast<int64_t>(hash_ids.size()));
  const int64_t missing_tokens = (full - covered) * bs;
  segments_.clear();
  int64_t cursor = 0;
  if (tool_tokens > 0 || system_tokens > 0) {
    int64_t prefix_blocks = (tool_tokens + system_tokens + bs - 1) / bs;
    if (prefix_blocks > 0) {
      if (prefix_blocks > static_cast<int64_t>(hash_ids.size()))
        throw std::invalid_argument(
            "turn 0's system prefix needs " + std::to_string(prefix_blocks) + " hash blocks but only " +
            std::to_string(hash_ids.size()) + " were recorded (tool_tokens=" + std::to_string(tool_tokens) +
            ", system_tokens=" + std::to_string(system_tokens) + ", block_size=" + std::to_string(bs) +
            "); the hash_ids are too truncated to rebuild the prefix");
      // A prefix claiming more blocks than the prompt holds folds its excess into the tail.
      prefix_blocks = std::min(prefix_blocks, covered);
    }
    if (prefix_blocks > 0) {
      segments_.push_back({"system", slice(hash_ids, 0, prefix_blocks), 0, ""});
      cursor = prefix_blocks;
    }
  }
  WekaSegment user{"user", slice(hash_ids, cursor, covered), 0, ""};
  const int64_t tail = missing_tokens + (in_tokens - full * bs);
  if (tail > 0) {
    user.tail = static_cast<uint32_t>(tail);
    user.tail_seed = seed;
  }
  // A prompt wholly taken by the prefix gets no empty user segment.
  if (!user.blocks.empty() || user.tail > 0 || segments_.empty()) segments_.push_back(std::move(user));
}

void WekaReconstructor::truncate_at_block(int64_t target) {
  if (target <= 0) {
    segments_.clear();
    return;
  }
  int64_t cursor = 0;
  for (size_t i = 0; i < segments_.size(); ++i) {
    WekaSegment& seg = segments_[i];
    const int64_t count = static_cast<int64_t>(seg.blocks.size());
    if (cursor + count < target) {
      cursor += count;
      continue;
    }
    if (cursor + count == target) {  // boundary: drop this segment's tail and everything after
      seg.tail = 0;
      seg.tail_seed.clear();
      segments_.resize(i + 1);
      return;
    }
    if (cursor == target) {  // the cut falls at this segment's start
      segments_.resize(i);
      return;
    }
    seg.blocks.resize(static_cast<size_t>(target - cursor));  // mid-segment, on a block boundary
    seg.tail = 0;
    seg.tail_seed.clear();
    segments_.resize(i + 1);
    return;
  }
  // The target lies past every block: nothing is cut (a tail stays, as AIPerf's does).
}

void WekaReconstructor::advance_turn(const std::vector<int64_t>& prev_hash_ids, int64_t prev_out_tokens,
                                     const std::vector<int64_t>& curr_hash_ids, int64_t curr_in_tokens,
                                     const std::string& seed, std::optional<int64_t> max_asst_blocks) {
  const int64_t bs = block_size_;
  const Geometry g = geometry(prev_hash_ids, curr_hash_ids, curr_in_tokens, bs);
  truncate_at_block(g.lcp);
  const std::vector<int64_t> fresh = slice(curr_hash_ids, g.lcp, g.covered);
  int64_t asst = prev_out_tokens > 0 ? (prev_out_tokens + bs - 1) / bs : 0;
  // With no user input left in the context, the conversation resumes with a user turn.
  if (std::none_of(segments_.begin(), segments_.end(), [](const WekaSegment& s) { return s.role == "user"; })) asst = 0;
  asst = std::min(asst, g.new_blocks);
  if (max_asst_blocks) asst = std::min(asst, *max_asst_blocks);
  // Every request ends with a user message: a region wholly assistant hands its last block back.
  if (g.tail == 0 && asst == g.new_blocks && asst > 0) --asst;
  if (asst > 0) segments_.push_back({"assistant", slice(fresh, 0, asst), 0, ""});
  WekaSegment user{"user", slice(fresh, asst, static_cast<int64_t>(fresh.size())), 0, ""};
  if (g.tail > 0) {
    user.tail = static_cast<uint32_t>(g.tail);
    user.tail_seed = seed;
  }
  if (!user.blocks.empty() || user.tail > 0) segments_.push_back(std::move(user));
}

std::vector<std::optional<int64_t>> weka_asst_block_caps(
    const std::vector<std::pair<std::vector<int64_t>, int64_t>>& turns, uint32_t block_size) {
  std::vector<std::optional<int64_t>> caps(turns.size());
  if (turns.empty()) return caps;
  const int64_t bs = block_size;
  std::vector<size_t> tile;  // owning turn of each block of the buffer
  std::vector<int64_t> eff_lcp(turns.size(), 0);
  for (size_t k = 0; k < turns.size(); ++k) {
    static const std::vector<int64_t> kNone;
    const Geometry g = geometry(k ? turns[k - 1].first : kNone, turns[k].first, turns[k].second, bs);
    if (k == 0) {
      tile.assign(static_cast<size_t>(g.covered), 0);
      continue;
    }
    const int64_t lcp = std::min<int64_t>(g.lcp, static_cast<int64_t>(tile.size()));
    eff_lcp[k] = lcp;
    const int64_t added = std::max<int64_t>(0, g.covered - lcp);
    if (added == 0 && g.tail == 0 && lcp >= 1) {  // a pure pull-back exposes block lcp - 1
      const size_t owner = tile[static_cast<size_t>(lcp - 1)];
      if (owner != 0) {
        const int64_t bound = (lcp - 1) - eff_lcp[owner];
        if (bound >= 0) caps[owner] = caps[owner] ? std::min(*caps[owner], bound) : bound;
      }
    }
    tile.resize(static_cast<size_t>(lcp));
    tile.insert(tile.end(), static_cast<size_t>(added), k);
  }
  return caps;
}

}  // namespace aiperf::dataset
