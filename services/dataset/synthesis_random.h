// CPython's random.Random (MT19937 seeded by init_by_array over the seed's 32-bit words), the
// scalar stream AIPerf's RandomGenerator.randint draws from. Bit-exact, so a seeded
// --synthesis-prefix-root-multiplier puts each trace in the same tree as the reference.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace aiperf::dataset {

// A source of uniform integers in [a, b] (the synthesizer's only draw), so tests can script it.
class IntRange {
 public:
  virtual ~IntRange() = default;
  virtual int64_t randint(int64_t a, int64_t b) = 0;
};

class PythonRandom : public IntRange {
 public:
  explicit PythonRandom(uint64_t seed);  // random.Random(seed) for a seed in [0, 2^64)
  uint32_t next32();                     // genrand_uint32
  uint64_t getrandbits(int k);           // 0 < k <= 64
  // random.Random.randint(a, b), b >= a: a + _randbelow(b - a + 1) (rejection on bit_length bits).
  int64_t randint(int64_t a, int64_t b) override;

 private:
  std::array<uint32_t, 624> mt_{};
  std::size_t index_ = 624;
};

}  // namespace aiperf::dataset
