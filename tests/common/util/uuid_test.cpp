// uuid4: RFC 4122 version-4 text, the same characters printf's %x would give for the same
// random draws (the hand-written hex must not drift from the format it replaced).
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>

#include "util/uuid.h"

TEST_CASE("uuid4 text equals printf's for the same draws, with version and variant set") {
  std::mt19937_64 rng(42), ref(42);
  for (int i = 0; i < 10000; ++i) {
    uint64_t hi = ref(), lo = ref();
    hi = (hi & 0xffffffffffff0fffULL) | 0x4000ULL;
    lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
    char want[37];
    std::snprintf(want, sizeof want, "%08x-%04x-%04x-%04x-%012llx", unsigned(hi >> 32), unsigned((hi >> 16) & 0xffff),
                  unsigned(hi & 0xffff), unsigned(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
    const std::string got = aiperf::util::uuid4(rng);
    REQUIRE(got == want);
    REQUIRE(got[14] == '4');                                  // version
    REQUIRE(std::string("89ab").find(got[19]) != std::string::npos);  // variant
  }
  std::mt19937_64 fixed(42);
  CHECK(aiperf::util::uuid4(fixed) == "c151df7d-6ee5-42d6-a397-8fb9b92502a8");
}
