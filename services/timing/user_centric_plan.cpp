#include "user_centric_plan.h"

#include <algorithm>
#include <numeric>

namespace aiperf::timing {
namespace {

// Smallest step > 1 coprime with n (1 when n <= 2): i * step mod n then visits every slot once.
uint32_t coprime_step(uint32_t n) {
  for (uint32_t step = 2; step < n; ++step)
    if (std::gcd(n, step) == 1) return step;
  return 1;
}

}  // namespace

std::vector<InitialUser> plan_initial_users(uint32_t num_users, uint32_t session_turns) {
  std::vector<InitialUser> users;
  const uint64_t lifetime = std::max<uint32_t>(1, session_turns > 0 ? session_turns - 1 : 0);
  // With a common factor, virtual_age mod U repeats slots; a coprime step spreads them instead.
  const bool alternate = std::gcd<uint64_t>(num_users, lifetime) > 1;
  const uint64_t step = alternate ? coprime_step(num_users) : 1;
  uint64_t next_id = 1;
  for (uint64_t i = 0; i < num_users; ++i) {
    const uint64_t virtual_age = (num_users - i) * lifetime;
    const uint64_t session_age = virtual_age / num_users;
    const uint64_t id = next_id++;
    if (session_age >= lifetime) continue;  // finished before t = 0
    const uint64_t slot = alternate ? (i * step) % num_users : virtual_age % num_users;
    users.push_back({id, static_cast<uint32_t>(lifetime - session_age), static_cast<uint32_t>(num_users - slot)});
  }
  users.push_back({next_id, 0, 0});
  return users;
}

}  // namespace aiperf::timing
