// Student's t quantiles and the two-sample KS test, against scipy 1.x values
// (stats.t.ppf, stats.ks_2samp(method="asymp")).
#include <catch2/catch.hpp>

#include <random>

#include "stats/inference.h"

using aiperf::stats::ks_two_sample;
using aiperf::stats::student_t_quantile;

TEST_CASE("student_t_quantile matches scipy.stats.t.ppf") {
  struct Case {
    double q, df, expected;
  };
  for (const Case c : {Case{0.975, 1, 12.706204736174694}, Case{0.975, 2, 4.302652729749462},
                       Case{0.975, 3, 3.1824463052837078}, Case{0.975, 9, 2.262157162798205},
                       Case{0.975, 29, 2.045229642132703}, Case{0.995, 4, 4.604094871349992},
                       Case{0.95, 2.5, 2.5582186141359355}, Case{0.9, 100, 1.290074761346516}}) {
    INFO("q " << c.q << " df " << c.df);
    CHECK(student_t_quantile(c.q, c.df) == Approx(c.expected).epsilon(1e-11));
    CHECK(student_t_quantile(1 - c.q, c.df) == Approx(-c.expected).epsilon(1e-11));
  }
  CHECK(student_t_quantile(0.5, 7) == 0);
  CHECK(std::isnan(student_t_quantile(1.0, 3)));
  CHECK(std::isnan(student_t_quantile(0.975, 0)));
}

TEST_CASE("ks_two_sample: the statistic exactly, the p-value from the asymptotic distribution") {
  const auto r = ks_two_sample({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, {3.5, 4.5, 6.5, 7.5, 11, 12, 13, 14});
  CHECK(r.statistic == 0.5);
  // scipy's exact small-sample value is 0.1875; Stephens' approximation gives 0.149.
  CHECK(r.p_value == Approx(0.149).margin(0.01));

  const auto same = ks_two_sample({1, 2, 3, 4}, {1, 2, 3, 4});
  CHECK(same.statistic == 0);
  CHECK(same.p_value == 1);

  // Large samples: close to scipy (0.175 gap -> p 0.0011 for 200 vs 300 values).
  std::vector<double> a, b;
  for (int i = 0; i < 200; ++i) a.push_back(i / 200.0);
  for (int i = 0; i < 300; ++i) b.push_back(0.175 + i / 300.0 * 0.825 + 0.0001);
  const auto big = ks_two_sample(a, b);
  CHECK(big.statistic == Approx(0.175).margin(0.006));
  CHECK(big.p_value < 0.01);
}
