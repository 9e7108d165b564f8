// AIPerf 0.13's timeslices of a server-metrics series (--slice-duration): fixed slices from the
// series' first scrape in the profiling window to its last, the last one cut short there.
#include <algorithm>
#include <cmath>
#include <limits>

#include "server_metrics.h"

namespace aiperf::telemetry {
namespace {

struct Slice {
  int64_t start_ns, end_ns;
  bool complete;
};

// Slices start at ts[first] + k * size while before ts[last] (a window of one scrape is 1 ns long,
// as AIPerf's); an end past the window is clipped to it and marks the slice incomplete.
std::vector<Slice> boundaries(const ServerSeries& s, const SeriesWindow& w, double slice_s) {
  const int64_t start = s.ts[w.first];
  const int64_t end = std::max(s.ts[w.last], start + 1);
  const auto size = static_cast<int64_t>(slice_s * 1e9);
  std::vector<Slice> out;
  if (size <= 0) return out;
  for (int64_t b = start; b < end; b += size) out.push_back({b, std::min(b + size, end), b + size <= end});
  return out;
}

// The last scrape at or before `t_ns`, not before `floor` (AIPerf searches the samples from the
// baseline on and clips to the first of them).
size_t at_or_before(const ServerSeries& s, size_t floor, int64_t t_ns) {
  const auto it = std::upper_bound(s.ts.begin() + static_cast<std::ptrdiff_t>(floor), s.ts.end(), t_ns);
  const auto past = static_cast<size_t>(it - s.ts.begin());
  return past > floor ? past - 1 : floor;
}

nlohmann::ordered_json slice_head(const Slice& slice) {
  nlohmann::ordered_json j;
  j["start_ns"] = slice.start_ns;
  j["end_ns"] = slice.end_ns;
  if (!slice.complete) j["is_complete"] = false;  // AIPerf writes the flag only when false
  return j;
}

}  // namespace

// Each slice: the counter's increase between its bounds (a decrease counts 0) and that per
// second of the slice. [] when the window and its baseline hold fewer than two scrapes.
nlohmann::ordered_json counter_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const size_t floor = w.ref.value_or(w.first);
  if (w.last - floor < 1) return out;
  for (const Slice& slice : boundaries(s, w, slice_s)) {
    const double delta = std::max(
        s.values[at_or_before(s, floor, slice.end_ns)] - s.values[at_or_before(s, floor, slice.start_ns)], 0.0);
    const double dur_s = static_cast<double>(slice.end_ns - slice.start_ns) / 1e9;
    nlohmann::ordered_json j = slice_head(slice);
    j["total"] = delta;
    j["rate"] = dur_s > 0 ? delta / dur_s : 0.0;
    out.push_back(std::move(j));
  }
  return out;
}

// Each slice: avg, min and max of the window's scrapes in [start, end) (the last slice also
// takes the scrape at its end); slices without a scrape are left out. Null (no key) with fewer
// than two scrapes in the window or no slice kept.
nlohmann::ordered_json gauge_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s) {
  if (w.last - w.first < 1) return nullptr;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  const std::vector<Slice> slices = boundaries(s, w, slice_s);
  for (size_t k = 0; k < slices.size(); ++k) {
    const Slice& slice = slices[k];
    const bool closed = k + 1 == slices.size() && slice.end_ns == s.ts[w.last];
    double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
    size_t n = 0;
    for (size_t i = w.first; i <= w.last; ++i) {
      if (s.ts[i] < slice.start_ns || s.ts[i] > slice.end_ns || (s.ts[i] == slice.end_ns && !closed)) continue;
      sum += s.values[i];
      lo = std::min(lo, s.values[i]);
      hi = std::max(hi, s.values[i]);
      ++n;
    }
    if (n == 0) continue;
    nlohmann::ordered_json j = slice_head(slice);
    j["avg"] = sum / static_cast<double>(n);
    j["min"] = lo;
    j["max"] = hi;
    out.push_back(std::move(j));
  }
  return out.empty() ? nlohmann::ordered_json() : out;
}

// Each slice: the increase of count (an integer) and sum between its bounds, their ratio (0
// without observations) and the buckets' increase (left out when one went back); a slice whose
// count or sum went back (a reset) is left out. Null when the window and baseline hold one scrape.
nlohmann::ordered_json histogram_timeslices(const ServerSeries& s, const SeriesWindow& w, double slice_s) {
  const size_t floor = w.ref.value_or(w.first);
  if (w.last <= floor) return nullptr;
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Slice& slice : boundaries(s, w, slice_s)) {
    const size_t a = at_or_before(s, floor, slice.start_ns), b = at_or_before(s, floor, slice.end_ns);
    const double sum = s.sums[b] - s.sums[a], count = s.counts[b] - s.counts[a];
    if (sum < 0 || count < 0) continue;
    nlohmann::ordered_json j = slice_head(slice);
    j["count"] = static_cast<int64_t>(count);
    j["sum"] = sum;
    j["avg"] = count > 0 ? sum / count : 0.0;
    nlohmann::ordered_json buckets = nlohmann::ordered_json::object();
    for (size_t i = 0; i < s.les.size() && buckets.is_object(); ++i) {
      const double d = s.buckets[b][i] - s.buckets[a][i];
      if (d < 0) buckets = nullptr;
      else buckets[s.les[i]] = static_cast<int64_t>(d);
    }
    if (!s.les.empty() && buckets.is_object()) j["buckets"] = std::move(buckets);
    out.push_back(std::move(j));
  }
  return out.empty() ? nlohmann::ordered_json() : out;
}

}  // namespace aiperf::telemetry
