// Expected values are numpy's (np.mean, np.std, np.percentile) for the same inputs.
#include "stats/stats.h"

#include <catch2/catch.hpp>

using namespace aiperf::stats;

TEST_CASE("percentiles interpolate linearly like numpy.percentile") {
  const std::vector<double> v = {1, 2, 3, 4};
  CHECK(percentile_sorted(v, 50) == 2.5);
  CHECK(percentile_sorted(v, 25) == 1.75);
  CHECK(percentile_sorted(v, 99) == 3.9699999999999998);  // numpy: 3.9699999999999998
  CHECK(percentile_sorted(v, 1) == 1.03);
  CHECK(percentile_sorted(v, 0) == 1);
  CHECK(percentile_sorted(v, 100) == 4);
  const std::vector<double> two = {10, 20};
  CHECK(percentile_sorted(two, 1) == 10.1);
  const std::vector<double> one = {7};
  CHECK(percentile_sorted(one, 90) == 7);
}

TEST_CASE("mean and population std match numpy") {
  const std::vector<double> v = {1, 2, 3, 4};
  CHECK(mean(v) == 2.5);
  CHECK(population_std(v) == 1.118033988749895);
  const std::vector<double> tenths = {0.1, 0.2, 0.3};
  CHECK(mean(tenths) == 0.20000000000000004);
  const std::vector<double> same = {550, 550, 550};
  CHECK(population_std(same) == 0.0);
}

TEST_CASE("sum uses numpy pairwise blocks") {
  // 0.1 * 10: pairwise (8 accumulators) gives 1.0 where a sequential loop gives 0.9999999999999999.
  const std::vector<double> tenths(10, 0.1);
  CHECK(sum(tenths) == 1.0);
  // Above 128 values the array is split in halves; integers stay exact.
  std::vector<double> ints(1000);
  for (std::size_t i = 0; i < ints.size(); ++i) ints[i] = static_cast<double>(i + 1);
  CHECK(sum(ints) == 500500);
  CHECK(sum(std::vector<double>{}) == 0);
}

TEST_CASE("summarize reports every statistic") {
  const Summary s = summarize({4, 1, 3, 2});
  CHECK(s.count == 4);
  CHECK(s.avg == 2.5);
  CHECK(s.min == 1);
  CHECK(s.max == 4);
  CHECK(s.sum == 10);
  CHECK(s.std == 1.118033988749895);
  CHECK(s.percentiles[0] == 1.03);                 // p1
  CHECK(s.percentiles[4] == 2.5);                  // p50
  CHECK(s.percentiles[8] == 3.9699999999999998);   // p99
}
