// --seq-dist parsing (every AIPerf spelling) and sampling proportions with a fixed seed.
#include <catch2/catch.hpp>

#include <set>

#include <map>

#include "seq_dist.h"

using aiperf::dataset::SeqDist;

TEST_CASE("seq-dist: semicolon, std-dev, bracket and JSON forms parse to the same pairs", "[dataset][seqdist]") {
  const auto plain = SeqDist::parse("256,128:40;512,256:60").pairs();
  REQUIRE(plain.size() == 2);
  CHECK(plain[0].isl == 256);
  CHECK(plain[0].osl == 128);
  CHECK(plain[0].percent == 40);
  CHECK(plain[1].isl == 512);
  CHECK(plain[1].osl == 256);
  CHECK(plain[1].percent == 60);

  const auto sd = SeqDist::parse(" 256|10,128|5.5:40 ; 512|20,256:60 ").pairs();
  REQUIRE(sd.size() == 2);
  CHECK(sd[0].isl_stddev == 10);
  CHECK(sd[0].osl_stddev == 5.5);
  CHECK(sd[1].isl_stddev == 20);
  CHECK(sd[1].osl_stddev == 0);

  const auto br = SeqDist::parse("[(256|10,128):40, (512,256|3):60]").pairs();
  REQUIRE(br.size() == 2);
  CHECK(br[0].isl == 256);
  CHECK(br[0].isl_stddev == 10);
  CHECK(br[1].osl_stddev == 3);
  CHECK(br[1].percent == 60);

  const auto js = SeqDist::parse(
      R"({"pairs":[{"isl":256,"isl_stddev":10,"osl":128,"osl_stddev":5,"prob":40},{"isl":512,"osl":256,"prob":60}]})")
                      .pairs();
  REQUIRE(js.size() == 2);
  CHECK(js[0].osl_stddev == 5);
  CHECK(js[1].isl == 512);
  CHECK(js[1].percent == 60);
}

TEST_CASE("seq-dist: malformed strings are rejected with the offending part", "[dataset][seqdist]") {
  CHECK_THROWS_WITH(SeqDist::parse("256,128:40;512,256:50"), "percentages must sum to 100, got 90");
  CHECK_THROWS_WITH(SeqDist::parse("256,128:0.4;512,256:0.6"), "percentages must sum to 100, got 1");
  CHECK_THROWS_WITH(SeqDist::parse("256:100"), "'256:100' is not ISL,OSL:PERCENT");
  CHECK_THROWS_WITH(SeqDist::parse("0,128:100"), "'0,128:100': lengths must be in 1..100000000");
  CHECK_THROWS_WITH(SeqDist::parse("[(256,128):100"), "missing closing ']'");
  CHECK_THROWS_WITH(SeqDist::parse(R"({"pairs":[{"isl":256,"prob":100}]})"), "pairs[0]: missing 'osl'");
  CHECK_THROWS_WITH(SeqDist::parse(""), "empty distribution");
}

TEST_CASE("seq-dist sampling follows the percentages (fixed seed)", "[dataset][seqdist]") {
  const SeqDist d = SeqDist::parse("100,10:20;200,20:30;300,30:50");
  std::mt19937_64 rng(42);
  std::map<uint32_t, int> counts;
  for (int i = 0; i < 10000; ++i) {
    const auto [isl, osl] = d.sample(rng);
    CHECK(osl * 10 == isl);  // a pair is drawn whole
    ++counts[isl];
  }
  REQUIRE(counts.size() == 3);
  // Exact counts for seed 42 (std::mt19937_64 is specified; libstdc++'s uniform_real_distribution
  // is deterministic), each within 0.8 points of its percentage.
  CHECK(counts[100] == 1983);
  CHECK(counts[200] == 2938);
  CHECK(counts[300] == 5079);
  std::mt19937_64 again(42);
  std::map<uint32_t, int> repeat;
  for (int i = 0; i < 10000; ++i) ++repeat[d.sample(again).first];
  CHECK(repeat == counts);
}

TEST_CASE("seq-dist with std-devs draws lengths around each mean", "[dataset][seqdist]") {
  const SeqDist d = SeqDist::parse("1000|50,100|10:100");
  std::mt19937_64 rng(9);
  double isl_sum = 0;
  std::set<uint32_t> distinct;
  for (int i = 0; i < 2000; ++i) {
    const auto [isl, osl] = d.sample(rng);
    isl_sum += isl;
    distinct.insert(osl);
    CHECK(isl >= 1);
  }
  CHECK(isl_sum / 2000 == Approx(1000).margin(5));
  CHECK(distinct.size() > 10);
}
