#include "util/fd_limit.h"

#include <sys/resource.h>

namespace aiperf::util {

uint64_t hard_fd_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1024;
  return lim.rlim_max == RLIM_INFINITY ? (1u << 20) : lim.rlim_max;
}

uint64_t raise_fd_limit() {
  rlimit lim{};
  if (::getrlimit(RLIMIT_NOFILE, &lim) != 0) return 1024;
  if (lim.rlim_cur != lim.rlim_max) {
    rlimit raised = lim;
    raised.rlim_cur = lim.rlim_max;
    // RLIM_INFINITY is refused for NOFILE (it must not exceed fs.nr_open); keep what we have then.
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
  }
  return lim.rlim_cur == RLIM_INFINITY ? (1u << 20) : lim.rlim_cur;
}

}  // namespace aiperf::util
