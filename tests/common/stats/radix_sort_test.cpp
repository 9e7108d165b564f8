// radix_sort must order exactly as std::stable_sort with the same comparison: equal keys keep
// their given order, the tiebreak orders within a key, and doubles order by value.
#include "stats/radix_sort.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <utility>

using aiperf::stats::ordered_key;
using aiperf::stats::radix_sort;

namespace {

// (value, position given): the position shows whether equal values kept their order.
std::vector<std::pair<double, int>> sample(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> pick(0, 5);
  std::uniform_real_distribution<double> real(-1e3, 1e3);
  std::vector<std::pair<double, int>> v;
  for (std::size_t i = 0; i < n; ++i) {
    // Anything; many repeats; a run's wall-clock times; both zeros; negatives.
    const int kind = pick(rng);
    const double x = kind == 0   ? real(rng)
                     : kind == 1 ? std::round(real(rng) / 100)
                     : kind == 2 ? 1.7e18 + std::round(real(rng)) * 256
                     : kind == 3 ? -0.0
                     : kind == 4 ? 0.0
                                 : -std::round(real(rng));
    v.emplace_back(x, static_cast<int>(i));
  }
  return v;
}

}  // namespace

TEST_CASE("ordered_key orders doubles as their values, -0 as +0") {
  const std::vector<double> ascending = {-1e300, -2.5, -1e-300, 0.0, 1e-300, 1.0, 1.7e18, 1e300};
  for (std::size_t i = 0; i + 1 < ascending.size(); ++i)
    CHECK(ordered_key(ascending[i]) < ordered_key(ascending[i + 1]));
  CHECK(ordered_key(-0.0) == ordered_key(0.0));
}

TEST_CASE("radix_sort equals std::stable_sort, with and without a tiebreak") {
  std::mt19937_64 rng(7);
  for (std::size_t n : {0u, 1u, 63u, 64u, 1000u, 100000u}) {
    const auto given = sample(n, rng);
    auto ours = given, theirs = given;
    radix_sort(ours, [](const auto& e) { return ordered_key(e.first); });
    std::stable_sort(theirs.begin(), theirs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    REQUIRE(ours.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(ours[i].second == theirs[i].second);  // the same element, so ties in the same order
    }

    // A tiebreak (odd positions last) as the sweep line's "ends before starts".
    auto odd_last = [](const auto& e) { return e.second % 2 == 1; };
    ours = given;
    theirs = given;
    radix_sort(
        ours, [](const auto& e) { return ordered_key(e.first); }, odd_last);
    std::stable_sort(theirs.begin(), theirs.end(), [&](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : odd_last(a) < odd_last(b);
    });
    for (std::size_t i = 0; i < n; ++i) REQUIRE(ours[i].second == theirs[i].second);
  }
}
