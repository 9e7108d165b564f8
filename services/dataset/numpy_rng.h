// Bit-exact copies of the two NumPy integer streams AIPerf's --random-range-ratio preseed uses
// (as vLLM and SGLang benchmarks do), so a seeded run draws the same ISLs, OSLs and token
// offsets as the reference: numpy.random.default_rng(seed) (SeedSequence -> PCG64, Lemire
// bounded draws) for the vllm style, numpy.random.RandomState(seed) (MT19937, masked rejection
// draws) for the sglang style.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace aiperf::dataset {

// A source of integers in [low, high) with NumPy's `integers`/`randint` semantics.
class NumpyIntegers {
 public:
  virtual ~NumpyIntegers() = default;
  // `count` draws in [low, high); high > low.
  virtual std::vector<int64_t> integers(int64_t low, int64_t high, size_t count) = 0;
};

// numpy.random.default_rng(seed): PCG64 seeded through SeedSequence(seed).
class NumpyPcg64 : public NumpyIntegers {
 public:
  explicit NumpyPcg64(uint64_t seed);
  std::vector<int64_t> integers(int64_t low, int64_t high, size_t count) override;
  uint64_t next64();
  uint32_t next32();  // the low half of a 64-bit draw, then its high half (NumPy buffers it)

 private:
  unsigned __int128 state_ = 0, inc_ = 0;
  bool has32_ = false;
  uint32_t buffered32_ = 0;
};

// numpy.random.RandomState(seed) for a seed in [0, 2^32): MT19937 (std::mt19937 seeds alike).
class NumpyRandomState : public NumpyIntegers {
 public:
  explicit NumpyRandomState(uint32_t seed) : mt_(seed) {}
  std::vector<int64_t> integers(int64_t low, int64_t high, size_t count) override;

 private:
  std::mt19937 mt_;
};

// AIPerf's rng.derive(identifier) seed under --random-seed `root`: the first 8 bytes (big endian)
// of SHA-256("<root>:<identifier>"); its NumPy stream is NumpyPcg64 of that seed.
uint64_t derive_aiperf_seed(uint64_t root, const std::string& identifier);

// AIPerf's fold_seed_to_uint32: (seed ^ (seed >> 32)) & 0xFFFFFFFF.
inline uint32_t fold_seed_to_uint32(uint64_t seed) { return static_cast<uint32_t>(seed ^ (seed >> 32)); }

}  // namespace aiperf::dataset
