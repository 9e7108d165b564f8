#include "util/uuid.h"

#include <cstdio>

namespace aiperf::util {

// Hex digits written by hand: snprintf was ~1 % of a worker's CPU (one id per request).
std::string uuid4(std::mt19937_64& rng) {
  uint64_t hi = rng(), lo = rng();
  hi = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;  // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(36, '-');
  size_t pos = 0;
  auto put = [&](uint64_t v, int digits) {
    for (int i = digits - 1; i >= 0; --i) out[pos++] = kHex[(v >> (4 * i)) & 0xf];
  };
  put(hi >> 32, 8);
  ++pos;
  put(hi >> 16, 4);
  ++pos;
  put(hi, 4);
  ++pos;
  put(lo >> 48, 4);
  ++pos;
  put(lo, 12);
  return out;
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
