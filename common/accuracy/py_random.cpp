#include "accuracy/py_random.h"

namespace aiperf::accuracy {

namespace {
constexpr int N = 624, M = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU, kUpper = 0x80000000U, kLower = 0x7fffffffU;
}  // namespace

void PyRandom::init_genrand(uint32_t s) {
  mt_[0] = s;
  for (mti_ = 1; mti_ < N; ++mti_)
    mt_[mti_] = 1812433253U * (mt_[mti_ - 1] ^ (mt_[mti_ - 1] >> 30)) + static_cast<uint32_t>(mti_);
}

PyRandom::PyRandom(uint32_t seed) {
  // CPython seeds an int through init_by_array with its 32-bit words (one word, even for 0).
  const uint32_t key[1] = {seed};
  const int key_length = 1;
  init_genrand(19650218U);
  int i = 1, j = 0;
  for (int k = N > key_length ? N : key_length; k; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
    ++i;
    ++j;
    if (i >= N) {
      mt_[0] = mt_[N - 1];
      i = 1;
    }
    if (j >= key_length) j = 0;
  }
  for (int k = N - 1; k; --k) {
    mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
    ++i;
    if (i >= N) {
      mt_[0] = mt_[N - 1];
      i = 1;
    }
  }
  mt_[0] = 0x80000000U;
  mti_ = N;
}

uint32_t PyRandom::genrand_uint32() {
  static const uint32_t mag01[2] = {0x0U, kMatrixA};
  uint32_t y;
  if (mti_ >= N) {
    int kk;
    for (kk = 0; kk < N - M; ++kk) {
      y = (mt_[kk] & kUpper) | (mt_[kk + 1] & kLower);
      mt_[kk] = mt_[kk + M] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < N - 1; ++kk) {
      y = (mt_[kk] & kUpper) | (mt_[kk + 1] & kLower);
      mt_[kk] = mt_[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt_[N - 1] & kUpper) | (mt_[0] & kLower);
    mt_[N - 1] = mt_[M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
    mti_ = 0;
  }
  y = mt_[mti_++];
  y ^= (y >> 11);
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= (y >> 18);
  return y;
}

uint32_t PyRandom::getrandbits(int k) { return genrand_uint32() >> (32 - k); }

uint64_t PyRandom::randbelow(uint64_t n) {
  int k = 0;
  for (uint64_t v = n; v; v >>= 1) ++k;  // n.bit_length()
  uint64_t r = getrandbits(k);
  while (r >= n) r = getrandbits(k);
  return r;
}

}  // namespace aiperf::accuracy
