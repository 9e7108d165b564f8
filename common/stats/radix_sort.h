// A stable sort by a 64-bit key in a few linear passes (LSD radix, 8-bit digits:
// a bucket per byte keeps the scatter's write streams few enough for the caches), for the
// millions of events and segments of the sweep-line metrics, where a comparison sort's log n
// merge levels cost most of the end-of-run time.
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace aiperf::stats {

// An unsigned key ordered as the double's value (negatives below positives; -0 as +0). NaN is
// not ordered: callers leave it out.
inline uint64_t ordered_key(double v) {
  const auto bits = std::bit_cast<uint64_t>(v + 0.0);  // + 0.0 turns -0 into +0
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

inline constexpr auto kNoTiebreak = [](const auto&) { return false; };

// Sorts v by key(element) ascending, then by tiebreak(element) (false first), keeping the given
// order of elements equal in both (as std::stable_sort would). Digits every key shares are
// skipped, so keys that differ only in their low bits (the times of one run) take about four
// passes.
template <typename T, typename Key, typename Tiebreak = decltype(kNoTiebreak)>
void radix_sort(std::vector<T>& v, Key key, Tiebreak tiebreak = kNoTiebreak) {
  constexpr int kBits = 8;
  constexpr std::size_t kBuckets = std::size_t{1} << kBits;
  constexpr int kDigits = (64 + kBits - 1) / kBits;
  const std::size_t n = v.size();
  if (n < 64) {
    std::stable_sort(v.begin(), v.end(), [&](const T& a, const T& b) {
      const uint64_t ka = key(a), kb = key(b);
      return ka != kb ? ka < kb : tiebreak(a) < tiebreak(b);
    });
    return;
  }
  std::vector<T> buffer(n);
  // The tiebreak is the least significant digit: a stable two-way split first.
  if constexpr (!std::is_same_v<Tiebreak, decltype(kNoTiebreak)>) {
    const auto falses =
        static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [&](const T& e) { return !tiebreak(e); }));
    std::size_t at_false = 0, at_true = falses;
    for (const T& e : v) buffer[tiebreak(e) ? at_true++ : at_false++] = e;
    v.swap(buffer);
  }
  std::vector<std::array<std::size_t, kBuckets>> counts(kDigits);
  for (auto& c : counts) c.fill(0);
  const uint64_t first = key(v.front());
  uint64_t differing = 0;
  for (const T& e : v) {
    const uint64_t k = key(e);
    differing |= k ^ first;
    for (int d = 0; d < kDigits; ++d) ++counts[static_cast<std::size_t>(d)][(k >> (d * kBits)) & (kBuckets - 1)];
  }
  for (int d = 0; d < kDigits; ++d) {
    if (((differing >> (d * kBits)) & (kBuckets - 1)) == 0) continue;
    auto& offsets = counts[static_cast<std::size_t>(d)];
    std::size_t at = 0;
    for (std::size_t& c : offsets) {
      const std::size_t here = c;
      c = at;
      at += here;
    }
    for (const T& e : v) buffer[offsets[(key(e) >> (d * kBits)) & (kBuckets - 1)]++] = e;
    v.swap(buffer);
  }
}

}  // namespace aiperf::stats
