// Numerical pieces the Bayesian-optimization samplers share (search_tpe.h, search_gp.h): a seeded
// random stream whose draws do not depend on the standard library's distributions (so a seed
// gives the same search on every build), the normal distribution's functions in log space, and
// the map between a --search-space dimension and the sampler's internal coordinate.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "search_spec.h"

namespace aiperf::cli::search::bo {

// mt19937_64 (its output is fixed by the standard) turned into doubles by hand, not through
// std::uniform_real_distribution, whose draws differ between standard libraries.
class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  double uniform();  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double normal();                                  // standard normal (Box-Muller, no cached spare)
  size_t pick(const std::vector<double>& weights);  // index drawn with probability weight / sum

 private:
  std::mt19937_64 gen_;
};

double norm_pdf(double z);
double norm_cdf(double z);
double log_norm_cdf(double z);  // accurate far in the lower tail
double norm_ppf(double p);      // inverse CDF, p in (0, 1)
// log(Phi(b) - Phi(a)) for a < b, accurate when both are in one tail.
double log_norm_mass(double a, double b);
// log of E[max(0, Z - 0) ] for Z ~ N(z, 1): log(phi(z) + z Phi(z)), stable for very negative z
// (the LogEI of Ament et al. 2023, which Optuna's GP sampler and BoTorch use).
double log_h(double z);

// One told trial: its point (external values, one per axis), its loss (lower is better: the
// objective negated when maximizing), each constraint's signed violation (> 0 violated, as
// Optuna's constraints_func) and their summed positive part (0: feasible).
struct Observation {
  std::vector<double> x;
  double loss = 0;
  std::vector<double> constraints;
  double violation = 0;
};

// A dimension in the sampler's internal coordinate: the log of the value for log-uniform priors,
// and an int dimension widened by half a step on each side (so each integer owns an equal
// interval), as Optuna treats IntDistribution.
struct Axis {
  double lo = 0, hi = 0;  // internal bounds
  bool log = false, integer = false;
  double ext_lo = 0, ext_hi = 0;  // the user's bounds
};
Axis axis_of(const Dimension& d);
double to_internal(const Axis& a, double value);
// The value an internal coordinate stands for: exponentiated for log axes, rounded to the nearest
// integer for int axes, clamped to the user's bounds.
double to_external(const Axis& a, double u);
// Internal coordinate rescaled to [0, 1] (the GP's input) and back.
inline double to_unit(const Axis& a, double u) { return (u - a.lo) / (a.hi - a.lo); }
inline double from_unit(const Axis& a, double t) { return a.lo + t * (a.hi - a.lo); }

// A point drawn uniformly in every axis's internal coordinate (Optuna's RandomSampler: log-uniform
// for log axes), as external values.
std::vector<double> random_point(const std::vector<Axis>& axes, Rng& rng);

}  // namespace aiperf::cli::search::bo
