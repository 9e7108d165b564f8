// Open-file limits: how many sockets one process may hold, and raising the soft limit to
// the hard one (what any unprivileged process may do). The hard limit is the administrator's
// per-process ceiling and is respected: more processes, not a higher ceiling, carry more.
#pragma once
#include <cstdint>

namespace aiperf::util {

// Descriptors a process keeps for things other than its HTTP connections (ZeroMQ sockets
// and their internal pipes, eventfds, log and export files, the tokenizer file).
inline constexpr uint64_t kReservedFds = 256;

// The hard RLIMIT_NOFILE of this process (what the soft limit can be raised to).
uint64_t hard_fd_limit();

// Raises the soft RLIMIT_NOFILE to the hard limit; returns the soft limit now in force.
uint64_t raise_fd_limit();

// Connections one process can hold at once under `fd_limit` descriptors (at least 1).
inline uint64_t connection_capacity(uint64_t fd_limit) {
  return fd_limit > kReservedFds + 1 ? fd_limit - kReservedFds : 1;
}

}  // namespace aiperf::util
