// Views over a parsed family that consumers need: the identity of a label set, and a
// histogram's samples regrouped into one series per label set (buckets, sum, count).
#pragma once
#include <string>
#include <vector>

#include "prometheus/exposition.h"

namespace aiperf::prometheus {

// Canonical text of a label set (sorted by name, values escaped), usable as a map key;
// "" for no labels. `skip` names one label left out (e.g. "le").
std::string label_key(const Labels& labels, std::string_view skip = {});

// Labels sorted by name, without `skip`.
Labels sorted_labels(const Labels& labels, std::string_view skip = {});

struct HistogramSeries {
  Labels labels;  // without "le", sorted
  struct Bucket {
    std::string le;     // as exposed ("0.005", "+Inf")
    double bound = 0;   // parsed le
    double cumulative = 0;
  };
  std::vector<Bucket> buckets;  // ascending bound
  double sum = 0;
  double count = 0;
};

// One entry per label set of a histogram family, in order of first appearance.
std::vector<HistogramSeries> histogram_series(const Family& family);

}  // namespace aiperf::prometheus
