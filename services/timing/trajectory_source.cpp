#include "trajectory_source.h"

#include <algorithm>
#include <cmath>

#include "util/uuid.h"

namespace aiperf::timing {
namespace {

std::optional<double> trajectory_turn_ts(const ConversationInfo& c, uint32_t turn) {
  if (turn >= c.timestamp_ms.size() || !std::isfinite(c.timestamp_ms[turn])) return std::nullopt;
  return c.timestamp_ms[turn];
}

// The lane's split of conversation `c`, or nothing when it has none.
std::optional<Trajectory> split_trace(const ConversationInfo& c, const TrajectoryOptions& o, std::mt19937_64& rng) {
  if (c.turns == 0) return std::nullopt;
  double first = INFINITY, last = -INFINITY;
  for (uint32_t t = 0; t < c.turns; ++t) {
    if (const auto ts = trajectory_turn_ts(c, t)) {
      first = std::min(first, *ts);
      last = std::max(last, *ts);
    }
  }
  Trajectory tr;
  if (std::isfinite(first)) {
    const double lo = first + o.start_min_ratio * (last - first);
    const double hi = std::max(lo, first + o.start_max_ratio * (last - first));
    const double t_star = hi == lo ? lo : lo + std::uniform_real_distribution<double>(0, 1)(rng) * (hi - lo);
    std::optional<uint32_t> next;
    for (uint32_t t = 0; t < c.turns && !next; ++t) {
      if (const auto ts = trajectory_turn_ts(c, t); ts && *ts >= t_star) next = t;
    }
    if (!next) return std::nullopt;
    tr.t_star_ms = t_star;
    tr.next_turn = *next;
    tr.next_ts_ms = trajectory_turn_ts(c, *next);
    if (*next >= 1) {
      tr.warm_turn = *next - 1;
      tr.warm_ts_ms = trajectory_turn_ts(c, *next - 1);
    }
    return tr;
  }
  // No timestamps: a split by turn count that leaves at least one profiled turn.
  const uint32_t n = c.turns;
  if (n <= 1) return std::nullopt;
  uint32_t k = 0;
  if (n > 2) {
    const auto cap = static_cast<int64_t>(n) - 2;
    int64_t k_max = std::min<int64_t>(static_cast<int64_t>(o.start_max_ratio * n), cap);
    const int64_t k_min = std::min<int64_t>(std::min<int64_t>(static_cast<int64_t>(o.start_min_ratio * n), cap), k_max);
    k = static_cast<uint32_t>(std::uniform_int_distribution<int64_t>(k_min, k_max)(rng));
  }
  tr.warm_turn = k;
  tr.next_turn = k + 1;
  return tr;
}

}  // namespace

TrajectorySet build_trajectories(const std::vector<ConversationInfo>& conversations, const TrajectoryOptions& o,
                                 std::mt19937_64& rng) {
  std::vector<size_t> roots;  // branch targets run only when a parent spawns them
  for (size_t i = 0; i < conversations.size(); ++i)
    if (!conversations[i].branch_child) roots.push_back(i);
  TrajectorySet out;
  if (roots.empty()) return out;
  std::vector<size_t> order = roots;
  size_t pos = 0;
  if (o.sampling == Sampling::kShuffle) std::shuffle(order.begin(), order.end(), rng);
  auto draw = [&]() -> size_t {
    if (o.sampling == Sampling::kRandom) return roots[std::uniform_int_distribution<size_t>(0, roots.size() - 1)(rng)];
    if (pos == order.size()) {
      if (o.sampling == Sampling::kShuffle) std::shuffle(order.begin(), order.end(), rng);
      pos = 0;
    }
    return order[pos++];
  };
  const uint64_t max_draws = o.lanes + 2 * roots.size();
  while (out.lanes.size() < o.lanes && out.draws < max_draws) {
    const size_t index = draw();
    ++out.draws;
    if (auto tr = split_trace(conversations[index], o, rng)) {
      tr->conversation = index;
      tr->correlation_id = util::uuid4(rng);
      out.lanes.push_back(std::move(*tr));
    }
  }
  return out;
}

}  // namespace aiperf::timing
