// --seq-dist (spec §4.2): a mix of (ISL, OSL) pairs with percentages summing to 100, each
// pair optionally with std-devs. Accepted spellings, as in AIPerf:
//   "256,128:40;512,256:60"        "256|10,128|5:40;512|20,256|10:60"
//   "[(256,128):40,(512|20,256):60]"
//   {"pairs":[{"isl":256,"isl_stddev":10,"osl":128,"osl_stddev":5,"prob":40},...]}
#pragma once
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace aiperf::dataset {

struct SeqDistPair {
  uint32_t isl = 0, osl = 0;
  double isl_stddev = 0, osl_stddev = 0;
  double percent = 0;
};

class SeqDist {
 public:
  // Throws std::invalid_argument naming the offending part.
  static SeqDist parse(const std::string& text);

  // One (ISL, OSL): a pair drawn by its percentage, then each length drawn around the pair's
  // mean with its std-dev (positive normal int; exactly the mean when the std-dev is 0).
  std::pair<uint32_t, uint32_t> sample(std::mt19937_64& rng) const;

  const std::vector<SeqDistPair>& pairs() const { return pairs_; }

 private:
  std::vector<SeqDistPair> pairs_;
  std::vector<double> cumulative_;  // fractions, last = 1
};

}  // namespace aiperf::dataset
