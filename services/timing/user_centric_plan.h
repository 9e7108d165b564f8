// User-centric rate mode (AIPerf §3.9, LMBenchmark style): U users each send one turn every
// turn_gap = U / Q seconds, so together they offer Q requests per second, and the run starts
// in steady state — the initial users are spread over the session lifetime as if they had
// joined before t = 0 ("virtual history"), so users leave and new ones join from the start.
#pragma once
#include <cstdint>
#include <vector>

namespace aiperf::timing {

struct InitialUser {
  uint64_t user_id;     // 1-based; also the session's x_correlation_id
  uint32_t max_turns;   // turns left to send; 0 = all turns of its conversation (the fresh user)
  uint32_t order;       // first send at phase start + order / Q
};

// The initial users for `num_users` users whose conversations average `session_turns` turns
// (rounded), in creation order. Users whose virtual history already used every turn are
// skipped but consume their user id. The last entry is the fresh user with order 0 that
// replaces the one who finished just before t = 0.
std::vector<InitialUser> plan_initial_users(uint32_t num_users, uint32_t session_turns);

}  // namespace aiperf::timing
