// Python's random.Random (CPython 3.11) for the few calls the accuracy benchmarks make, so the
// few-shot examples they pick are the reference's: seeding from an int (init_by_array), the
// Mersenne Twister words, getrandbits(k <= 32), randrange(n) and shuffle.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace aiperf::accuracy {

class PyRandom {
 public:
  explicit PyRandom(uint32_t seed);  // random.Random(seed) for 0 <= seed < 2**32
  uint32_t genrand_uint32();
  uint32_t getrandbits(int k);     // 1 <= k <= 32
  uint64_t randbelow(uint64_t n);  // n >= 1, n < 2**32
  template <class T>
  void shuffle(std::vector<T>& x) {
    for (std::size_t i = x.size(); i-- > 1;) {
      const auto j = static_cast<std::size_t>(randbelow(i + 1));
      std::swap(x[i], x[j]);
    }
  }

 private:
  void init_genrand(uint32_t s);
  uint32_t mt_[624];
  int mti_ = 625;
};

}  // namespace aiperf::accuracy
