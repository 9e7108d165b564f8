// The Pareto frontier of a set of (x, y) points: the points no other point beats on both axes.
#pragma once
#include <vector>

namespace aiperf::plot {

// frontier[i] is true when point i is not dominated, given which direction is better on each
// axis. Identical points are all on the frontier (none dominates another), as the reference's
// sweep does. The result is in the input's order.
std::vector<bool> pareto_frontier(const std::vector<double>& x, const std::vector<double>& y, bool x_higher_better,
                                  bool y_higher_better);

}  // namespace aiperf::plot
