#include "plot/pareto.h"

#include <algorithm>
#include <numeric>

namespace aiperf::plot {

std::vector<bool> pareto_frontier(const std::vector<double>& x, const std::vector<double>& y, bool x_higher_better,
                                  bool y_higher_better) {
  const size_t n = std::min(x.size(), y.size());
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Best x first; among equal x, best y first so a worse twin is judged after it.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (x[a] != x[b]) return x_higher_better ? x[a] > x[b] : x[a] < x[b];
    return y_higher_better ? y[a] > y[b] : y[a] < y[b];
  });
  std::vector<bool> on(n, false);
  bool any = false;
  double best = 0;
  for (size_t i : order) {
    const bool better_or_equal = !any || (y_higher_better ? y[i] >= best : y[i] <= best);
    if (better_or_equal) {
      on[i] = true;
      best = y[i];
      any = true;
    }
  }
  return on;
}

}  // namespace aiperf::plot
