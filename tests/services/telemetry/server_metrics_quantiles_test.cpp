// AIPerf 0.13's histogram quantile estimates (server_metrics_quantiles.cpp) against golden values
// from the reference itself: the scripted scrape sequences below were fed to AIPerf 0.13.0's
// _compute_histogram_stats (aiperf/server_metrics/export_stats.py, which calls
// accumulate_bucket_statistics and compute_estimated_percentiles) by
// tests/services/telemetry/server_metrics_quantiles_golden.py, whose output is the table below:
//   ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/services/telemetry/server_metrics_quantiles_golden.py
// The estimates must be equal to the last bit (numpy's summation and interpolation rules included).
#include <catch2/catch.hpp>
#include <array>
#include <string>
#include <vector>

#include "server_metrics.h"

using namespace aiperf::telemetry;

namespace {

struct Scrape {
  int64_t ts;
  double sum, count;
  std::vector<double> buckets;  // cumulative
};

struct Case {
  std::string name;
  std::vector<std::string> les;
  int64_t start_ns;  // the profiling window's start; it runs to the last scrape
  std::vector<Scrape> scrapes;
  int64_t count;                  // 0.13's histogram count over the window
  bool has_estimates;             // 0.13 writes p*_estimate keys
  std::vector<double> estimates;  // p1, p5, p10, p25, p50, p75, p90, p95, p99
};

// clang-format off
const std::vector<Case> kCases = {
    {"one bucket, tight spread",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 3.0, 10.0, {0.0, 0.0, 10.0, 10.0}},
      {2000000000, 9.001999999999999, 30.0, {0.0, 0.0, 30.0, 30.0}},
      {3000000000, 10.501499999999998, 35.0, {0.0, 0.0, 35.0, 35.0}},
      {4000000000, 12.601499999999998, 42.0, {0.0, 0.0, 42.0, 42.0}}},
     42, true, {0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626, 0.30003574761309626}},
    {"one bucket, centred spread",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 5.2, 10.0, {0.0, 0.0, 10.0, 10.0}},
      {2000000000, 10.7, 20.0, {0.0, 0.0, 20.0, 20.0}},
      {3000000000, 16.5, 30.0, {0.0, 0.0, 30.0, 30.0}}},
     30, true, {0.29422, 0.3151, 0.3412, 0.41950000000000004, 0.55, 0.6805000000000001, 0.7588000000000001, 0.7848999999999999, 0.80578}},
    {"one bucket, wide spread",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 0.8, 4.0, {0.0, 0.0, 4.0, 4.0}},
      {2000000000, 3.8, 10.0, {0.0, 0.0, 10.0, 10.0}},
      {3000000000, 7.8, 15.0, {0.0, 0.0, 15.0, 15.0}}},
     15, true, {0.12090666666666666, 0.15226666666666666, 0.19146666666666665, 0.3090666666666667, 0.5050666666666668, 0.7290666666666668, 0.8634666666666668, 0.9082666666666667, 0.9441066666666666}},
    {"one bucket, two intervals",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 0.6000000000000001, 3.0, {0.0, 0.0, 3.0, 3.0}},
      {2000000000, 1.85, 8.0, {0.0, 0.0, 8.0, 8.0}}},
     8, true, {0.1, 0.1, 0.1, 0.1, 0.175, 0.371875, 0.49, 0.529375, 0.560875}},
    {"spread over buckets",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 1.4600000000000002, 10.0, {2.0, 7.0, 10.0, 10.0}},
      {2000000000, 2.9320000000000004, 21.0, {6.0, 17.0, 21.0, 21.0}},
      {3000000000, 4.594, 33.0, {7.0, 21.0, 33.0, 33.0}}},
     33, true, {7.83408893604707e-05, 0.0011019581363943282, 0.0033876724221086145, 0.01, 0.05019296807176618, 0.15371539500337614, 0.5137153950033762, 0.633715395003376, 0.7297153950033761}},
    {"spread and learned",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 2.0, 4.0, {0.0, 0.0, 4.0, 4.0}},
      {2000000000, 2.06, 7.0, {0.0, 3.0, 7.0, 7.0}},
      {3000000000, 4.52, 13.0, {0.0, 5.0, 13.0, 13.0}},
      {4000000000, 5.42, 15.0, {0.0, 5.0, 15.0, 15.0}},
      {5000000000, 5.77, 20.0, {0.0, 10.0, 20.0, 20.0}},
      {6000000000, 5.842, 26.0, {0.0, 16.0, 26.0, 26.0}},
      {7000000000, 6.169, 36.0, {9.0, 25.0, 36.0, 36.0}}},
     36, true, {0.0009986381044955592, 0.0025541936600511146, 0.004498638104495559, 0.011383233431752439, 0.04310964615988566, 0.1817792519377474, 0.6113247064832019, 0.7545065246650201, 0.8690519792104745}},
    {"+Inf bucket",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 15.0, 19.0, {0.0, 10.0, 15.0, 19.0}},
      {2000000000, 20.6, 31.0, {0.0, 20.0, 25.0, 31.0}}},
     31, true, {0.013600000000000001, 0.019000000000000003, 0.025750000000000002, 0.046000000000000006, 0.07975, 0.64, 2.433333333333333, 3.508333333333333, 4.368333333333332}},
    {"+Inf bucket, one observation",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 8.0, 11.0, {0.0, 10.0, 10.0, 11.0}}},
     11, true, {0.01539999999999998, 0.01899999999999998, 0.02349999999999998, 0.03699999999999998, 0.05949999999999999, 0.08199999999999999, 0.09549999999999997, 3.7727500000000003, 6.714550000000003}},
    {"+Inf bucket, sum too small",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 0.8, 13.0, {0.0, 10.0, 10.0, 13.0}}},
     13, true, {0.01558, 0.0199, 0.025300000000000003, 0.0415, 0.0685, 0.0955, 1.4000000000000004, 1.6999999999999993, 1.9399999999999995}},
    {"counter reset mid-run",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 2.0, 10.0, {0.0, 2.0, 10.0, 10.0}},
      {1000000000, 4.0, 20.0, {0.0, 4.0, 20.0, 20.0}},
      {2000000000, 0.3, 3.0, {0.0, 2.0, 3.0, 3.0}},
      {3000000000, 5.5, 25.0, {1.0, 6.0, 25.0, 25.0}},
      {4000000000, 9.0, 30.0, {1.0, 6.0, 30.0, 30.0}}},
     20, true, {0.004437338479610673, 0.009656625832074734, 0.03201191475079712, 0.1, 0.3306480896368239, 0.5978355896368238, 0.7431480896368239, 0.7431480896368239, 0.7431480896368239}},
    {"bucket reset",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 2.0, 10.0, {0.0, 8.0, 10.0, 10.0}},
      {1000000000, 0.5, 5.0, {0.0, 1.0, 5.0, 5.0}},
      {2000000000, 6.0, 22.0, {0.0, 4.0, 22.0, 22.0}}},
     12, false, {}},
    {"single scrape",
     {"0.01", "0.1", "1", "+Inf"},
     0,
     {{1000000000, 4.0, 10.0, {0.0, 2.0, 10.0, 10.0}}},
     0, false, {}},
    {"baseline and one scrape",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 1.0, 5.0, {0.0, 1.0, 5.0, 5.0}},
      {1000000000, 4.5, 17.0, {0.0, 5.0, 16.0, 17.0}}},
     12, true, {0.010635472972972973, 0.013177364864864864, 0.018027027027027027, 0.055152027027027026, 0.12084942084942084, 0.43098455598455593, 0.6431274131274131, 1.0357915057915053, 1.4071583011583015}},
    {"learning from the reference on",
     {"0.01", "0.1", "1", "+Inf"},
     1500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 4.5, 5.0, {0.0, 0.0, 5.0, 5.0}},
      {2000000000, 6.0, 10.0, {0.0, 0.0, 10.0, 10.0}},
      {3000000000, 7.75, 15.0, {0.0, 0.0, 15.0, 15.0}},
      {4000000000, 9.08, 20.0, {0.0, 1.0, 20.0, 20.0}}},
     15, true, {0.05740741376842709, 0.08514212108200946, 0.1, 0.1, 0.2638437126675488, 0.4888437126675488, 0.6238437126675488, 0.6688437126675487, 0.7048437126675487}},
    {"zero sum",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 0.0, 4.0, {4.0, 4.0, 4.0, 4.0}}},
     4, true, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
    {"dominant bucket",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 13.35, 20.0, {0.0, 1.0, 20.0, 20.0}},
      {2000000000, 40.76, 59.0, {0.0, 2.0, 59.0, 59.0}}},
     59, true, {0.061288915374626135, 0.29618904567867166, 0.3419785193628822, 0.4793469404155138, 0.7082943088365664, 0.9372416772576191, 1.0, 1.0, 1.0}},
    {"over 100000 observations",
     {"0.01", "0.1", "1", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0}},
      {1000000000, 22622.0, 161001.0, {30000.0, 120000.0, 160000.0, 161001.0}},
      {2000000000, 25622.0, 211001.0, {30000.0, 170000.0, 210000.0, 211001.0}}},
     211001, true, {0.0, 0.0024671586143773737, 0.005984004643778794, 0.017055224471499295, 0.0509656238686357, 0.0848760232657721, 0.4322738277181721, 0.6696484123043406, 0.8595480799732761}},
    {"vllm itl buckets",
     {"0.01", "0.025", "0.05", "0.075", "0.1", "0.15", "0.2", "0.3", "0.4", "0.5", "0.75", "1.0", "2.5", "+Inf"},
     500000000,
     {{0, 0.0, 0.0, {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
      {1000000000, 0.3618, 18.0, {0.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0, 18.0}},
      {2000000000, 1.0782, 54.0, {0.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0, 54.0}},
      {3000000000, 1.6536, 82.0, {0.0, 81.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0, 82.0}},
      {4000000000, 2.0136, 100.0, {0.0, 99.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0}}},
     100, true, {0.01627841127965859, 0.01659041127965859, 0.01698041127965859, 0.01815041127965859, 0.02010041127965859, 0.022050411279658587, 0.0226950324917798, 0.022710032491779802, 0.022871405303030383}},
};
// clang-format on

ServerSeries make_series(const Case& c) {
  ServerSeries s;
  s.endpoint_url = "http://127.0.0.1:8000/metrics";
  s.family = "lat_seconds";
  s.type = aiperf::prometheus::MetricType::kHistogram;
  s.les = c.les;
  for (const Scrape& sc : c.scrapes) {
    s.ts.push_back(sc.ts);
    s.sums.push_back(sc.sum);
    s.counts.push_back(sc.count);
    s.buckets.push_back(sc.buckets);
  }
  return s;
}

const char* const kKeys[9] = {"p1_estimate",  "p5_estimate",  "p10_estimate", "p25_estimate", "p50_estimate",
                              "p75_estimate", "p90_estimate", "p95_estimate", "p99_estimate"};

}  // namespace

TEST_CASE("histogram quantile estimates: AIPerf 0.13's own values, to the last bit") {
  for (const Case& c : kCases) {
    INFO(c.name);
    const SeriesExport e = series_export(make_series(c), c.start_ns);
    CHECK(e.stats["count"] == c.count);
    for (size_t i = 0; i < 9; ++i) {
      INFO(kKeys[i]);
      REQUIRE(e.stats.contains(kKeys[i]) == c.has_estimates);
      if (c.has_estimates) CHECK(e.stats[kKeys[i]].get<double>() == c.estimates[i]);
    }
  }
}

TEST_CASE("histogram quantile estimates: the buckets in bound order whatever the exposition's") {
  // The same "+Inf bucket" history with the bounds listed out of order.
  const Case* plain = nullptr;
  for (const Case& c : kCases)
    if (c.name == "+Inf bucket") plain = &c;
  REQUIRE(plain);
  Case shuffled = *plain;
  const std::vector<size_t> perm = {2, 0, 3, 1};
  shuffled.les.clear();
  for (size_t p : perm) shuffled.les.push_back(plain->les[p]);
  for (size_t k = 0; k < shuffled.scrapes.size(); ++k) {
    shuffled.scrapes[k].buckets.clear();
    for (size_t p : perm) shuffled.scrapes[k].buckets.push_back(plain->scrapes[k].buckets[p]);
  }
  const SeriesExport e = series_export(make_series(shuffled), shuffled.start_ns);
  for (size_t i = 0; i < 9; ++i) CHECK(e.stats[kKeys[i]].get<double>() == plain->estimates[i]);
}

TEST_CASE("histogram quantile estimates: learned bucket statistics") {
  // Intervals with observations in one bucket only teach it their mean; the others nothing.
  const Case* c = nullptr;
  for (const Case& k : kCases)
    if (k.name == "spread and learned") c = &k;
  REQUIRE(c);
  const std::vector<LearnedBucket> learned = learn_buckets(make_series(*c), 0);
  REQUIRE(learned.size() == 4);
  CHECK(learned[0].observations == 0);
  CHECK(learned[1].observations == 14);  // 3, 5 and 6 observations at 0.02, 0.07, 0.012
  CHECK(learned[1].means.size() == 3);
  REQUIRE(learned[1].variance());
  CHECK(learned[2].observations == 6);  // 4 at 0.5, 2 at 0.45
  CHECK(learned[2].mean() == Approx((4 * 0.5 + 2 * 0.45) / 6).epsilon(1e-12));
  CHECK_FALSE(learned[2].variance());  // two intervals: no variance yet
  CHECK(learned[3].observations == 0);
}
