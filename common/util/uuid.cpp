#include "util/uuid.h"

#include <cstdio>

namespace aiperf::util {

std::string uuid4(std::mt19937_64& rng) {
  uint64_t hi = rng(), lo = rng();
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  char buf[37];
  std::snprintf(buf, sizeof buf, "%08x-%04x-%04x-%04x-%012llx", unsigned(hi >> 32),
                unsigned((hi >> 16) & 0xffff), unsigned(hi & 0xffff), unsigned(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return buf;
}

std::string uuid4() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  return uuid4(rng);
}

std::string short_id() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", unsigned(rng()));
  return buf;
}

}  // namespace aiperf::util
