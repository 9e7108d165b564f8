#include "numpy_rng.h"

#include <array>
#include <stdexcept>

#include <openssl/sha.h>

namespace aiperf::dataset {
namespace {

// SeedSequence constants (numpy/random/bit_generator.pyx).
constexpr uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875, kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;
constexpr int kXShift = 16;
constexpr size_t kPoolSize = 4;

// SeedSequence(seed).generate_state(n32, uint32) for an integer seed and no spawn key.
std::vector<uint32_t> seed_sequence_state(uint64_t seed, size_t n32) {
  std::vector<uint32_t> entropy{static_cast<uint32_t>(seed)};
  if (seed >> 32) entropy.push_back(static_cast<uint32_t>(seed >> 32));
  uint32_t hash_const = kInitA;
  auto hashmix = [&hash_const](uint32_t value) {
    value ^= hash_const;
    hash_const *= kMultA;
    value *= hash_const;
    value ^= value >> kXShift;
    return value;
  };
  auto mix = [](uint32_t x, uint32_t y) {
    uint32_t r = kMixMultL * x - kMixMultR * y;
    r ^= r >> kXShift;
    return r;
  };
  std::array<uint32_t, kPoolSize> pool{};
  for (size_t i = 0; i < kPoolSize; ++i) pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0);
  for (size_t src = 0; src < kPoolSize; ++src)
    for (size_t dst = 0; dst < kPoolSize; ++dst)
      if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src]));
  for (size_t src = kPoolSize; src < entropy.size(); ++src)
    for (size_t dst = 0; dst < kPoolSize; ++dst) pool[dst] = mix(pool[dst], hashmix(entropy[src]));

  std::vector<uint32_t> state(n32);
  uint32_t hb = kInitB;
  for (size_t i = 0; i < n32; ++i) {
    uint32_t v = pool[i % kPoolSize];
    v ^= hb;
    hb *= kMultB;
    v *= hb;
    v ^= v >> kXShift;
    state[i] = v;
  }
  return state;
}

constexpr unsigned __int128 kPcgMult =
    (static_cast<unsigned __int128>(2549297995355413924ULL) << 64) + 4865540595714422341ULL;

// NumPy's inclusive span `rng` = high - 1 - low, as _bounded_integers computes it.
uint64_t span_of(int64_t low, int64_t high) {
  if (high <= low) throw std::invalid_argument("integers: high <= low");
  return static_cast<uint64_t>(high - 1 - low);
}

}  // namespace

NumpyPcg64::NumpyPcg64(uint64_t seed) {
  const std::vector<uint32_t> w = seed_sequence_state(seed, 8);
  auto u64 = [&w](size_t i) { return static_cast<uint64_t>(w[2 * i]) | (static_cast<uint64_t>(w[2 * i + 1]) << 32); };
  const unsigned __int128 initstate = (static_cast<unsigned __int128>(u64(0)) << 64) | u64(1);
  const unsigned __int128 initseq = (static_cast<unsigned __int128>(u64(2)) << 64) | u64(3);
  state_ = 0;
  inc_ = (initseq << 1) | 1;
  state_ = state_ * kPcgMult + inc_;
  state_ += initstate;
  state_ = state_ * kPcgMult + inc_;
}

uint64_t NumpyPcg64::next64() {
  state_ = state_ * kPcgMult + inc_;
  const uint64_t x = static_cast<uint64_t>(state_ >> 64) ^ static_cast<uint64_t>(state_);
  const unsigned rot = static_cast<unsigned>(state_ >> 122);
  return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t NumpyPcg64::next32() {
  if (has32_) {
    has32_ = false;
    return buffered32_;
  }
  const uint64_t v = next64();
  has32_ = true;
  buffered32_ = static_cast<uint32_t>(v >> 32);
  return static_cast<uint32_t>(v);
}

std::vector<int64_t> NumpyPcg64::integers(int64_t low, int64_t high, size_t count) {
  const uint64_t rng = span_of(low, high);
  std::vector<int64_t> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (rng == 0) {
      out.push_back(low);
    } else if (rng < 0xFFFFFFFFULL) {  // Lemire's bounded draw on 32-bit words
      const uint32_t excl = static_cast<uint32_t>(rng) + 1;
      uint64_t m = static_cast<uint64_t>(next32()) * excl;
      uint32_t leftover = static_cast<uint32_t>(m);
      if (leftover < excl) {
        const uint32_t threshold = (UINT32_MAX - static_cast<uint32_t>(rng)) % excl;
        while (leftover < threshold) {
          m = static_cast<uint64_t>(next32()) * excl;
          leftover = static_cast<uint32_t>(m);
        }
      }
      out.push_back(low + static_cast<int64_t>(m >> 32));
    } else if (rng == 0xFFFFFFFFULL) {
      out.push_back(low + next32());
    } else {
      throw std::invalid_argument("integers: spans beyond 2^32 are not needed here");
    }
  }
  return out;
}

std::vector<int64_t> NumpyRandomState::integers(int64_t low, int64_t high, size_t count) {
  const uint64_t rng = span_of(low, high);
  if (rng > 0xFFFFFFFFULL) throw std::invalid_argument("randint: spans beyond 2^32 are not needed here");
  uint32_t mask = static_cast<uint32_t>(rng);
  for (int s = 1; s < 32; s <<= 1) mask |= mask >> s;  // smallest 2^k - 1 >= rng
  std::vector<int64_t> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    if (rng == 0) {
      out.push_back(low);
      continue;
    }
    uint32_t v;
    while ((v = static_cast<uint32_t>(mt_()) & mask) > rng) {
    }
    out.push_back(low + v);
  }
  return out;
}

uint64_t derive_aiperf_seed(uint64_t root, const std::string& identifier) {
  const std::string text = std::to_string(root) + ":" + identifier;
  unsigned char md[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), md);
  uint64_t seed = 0;
  for (int i = 0; i < 8; ++i) seed = (seed << 8) | md[i];
  return seed;
}

}  // namespace aiperf::dataset
