// PyRandom against CPython 3.11: random.Random(0); x = list(range(10)); r.shuffle(x) ->
// [7, 8, 1, 5, 3, 4, 2, 0, 9, 6]; then [r.randrange(7) for _ in range(5)] -> [2, 4, 1, 4, 1];
// then r.getrandbits(32) -> 1210484339.
#include <catch2/catch.hpp>

#include "accuracy/py_random.h"

using aiperf::accuracy::PyRandom;

TEST_CASE("PyRandom(0) shuffles and draws as CPython's random.Random(0)") {
  PyRandom r(0);
  std::vector<int> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  r.shuffle(x);
  CHECK(x == std::vector<int>{7, 8, 1, 5, 3, 4, 2, 0, 9, 6});
  std::vector<uint64_t> draws;
  for (int i = 0; i < 5; ++i) draws.push_back(r.randbelow(7));
  CHECK(draws == std::vector<uint64_t>{2, 4, 1, 4, 1});
  CHECK(r.getrandbits(32) == 1210484339u);
}
