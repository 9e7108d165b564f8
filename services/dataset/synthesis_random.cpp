#include "synthesis_random.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace aiperf::dataset {
namespace {
constexpr std::size_t kN = 624, kM = 397;
}

PythonRandom::PythonRandom(uint64_t seed) {
  // CPython: the key is the seed's 32-bit words, least significant first ([0] for 0).
  std::vector<uint32_t> key;
  for (uint64_t s = seed; s != 0; s >>= 32) key.push_back(static_cast<uint32_t>(s));
  if (key.empty()) key.push_back(0);
  // init_genrand(19650218)
  mt_[0] = 19650218U;
  for (size_t i = 1; i < kN; ++i) mt_[i] = 1812433253U * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  // init_by_array(key)
  size_t i = 1, j = 0;
  for (size_t k = std::max(kN, key.size()); k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
    if (++i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
    if (++j >= key.size()) j = 0;
  }
  for (size_t k = kN - 1; k > 0; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
    if (++i >= kN) {
      mt_[0] = mt_[kN - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000U;
  index_ = kN;
}

uint32_t PythonRandom::next32() {
  if (index_ >= kN) {
    for (std::size_t k = 0; k < kN; ++k) {
      const uint32_t y = (mt_[k] & 0x80000000U) | (mt_[(k + 1) % kN] & 0x7fffffffU);
      mt_[k] = mt_[(k + kM) % kN] ^ (y >> 1) ^ ((y & 1U) ? 0x9908b0dfU : 0U);
    }
    index_ = 0;
  }
  uint32_t y = mt_[index_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

uint64_t PythonRandom::getrandbits(int k) {
  if (k <= 32) return next32() >> (32 - k);
  // CPython fills 32-bit words least significant first, the last one shifted down.
  const uint64_t low = next32();
  const uint64_t high = next32() >> (64 - k);
  return low | (high << 32);
}

int64_t PythonRandom::randint(int64_t a, int64_t b) {
  const uint64_t n = static_cast<uint64_t>(b - a) + 1;
  const int k = static_cast<int>(std::bit_width(n));
  uint64_t r = getrandbits(k);
  while (r >= n) r = getrandbits(k);
  return a + static_cast<int64_t>(r);
}

}  // namespace aiperf::dataset
