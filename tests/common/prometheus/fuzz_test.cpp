// Random mutations of every recorded page (fixed seed, so a failure reproduces): the parser
// never crashes or hangs, and each input either parses or fails with a line that exists.
#include <catch2/catch.hpp>
#include <algorithm>
#include <random>

#include "fixture.h"
#include "prometheus/exposition.h"

using namespace aiperf::prometheus;

namespace {

std::string mutate(std::string text, std::mt19937_64& rng) {
  static const std::string kInteresting = "{}\",=\\\n #+-.eEInfNa_:0123456789\r\t\0";
  const int edits = 1 + static_cast<int>(rng() % 8);
  for (int i = 0; i < edits && !text.empty(); ++i) {
    const size_t pos = rng() % text.size();
    switch (rng() % 5) {
      case 0: text[pos] = kInteresting[rng() % kInteresting.size()]; break;      // replace
      case 1: text.insert(pos, 1, kInteresting[rng() % kInteresting.size()]); break;
      case 2: text.erase(pos, 1 + rng() % 16); break;                              // delete a run
      case 3: text[pos] = static_cast<char>(rng() % 256); break;                   // any byte
      case 4: text.insert(pos, text.substr(rng() % text.size(), 1 + rng() % 32)); break;  // duplicate
    }
  }
  return text;
}

size_t line_count(const std::string& text) { return std::count(text.begin(), text.end(), '\n') + 1; }

}  // namespace

TEST_CASE("mutated exporter pages parse or fail on an existing line") {
  std::mt19937_64 rng(20240611);
  size_t parsed = 0, rejected = 0;
  for (const char* name : {"dcgm_exporter.txt", "vllm.txt", "sglang.txt", "trtllm_dynamo.txt", "llamacpp.txt"}) {
    const std::string original = aiperf::test::prometheus_fixture(name);
    for (int round = 0; round < 400; ++round) {
      const std::string text = mutate(original, rng);
      const ParseResult r = parse(text);
      REQUIRE(r.ok() != r.error.has_value());
      if (r.ok()) {
        ++parsed;
        continue;
      }
      ++rejected;
      INFO(name << " round " << round << ": " << r.error->message);
      REQUIRE(r.error->line >= 1);
      REQUIRE(r.error->line <= line_count(text));
      REQUIRE_FALSE(r.error->message.empty());
    }
  }
  // Both outcomes must occur, or the mutations are not exercising the parser.
  CHECK(parsed > 0);
  CHECK(rejected > 0);
  CHECK(parsed + rejected == 2000);
}

TEST_CASE("truncating a page at every byte never crashes") {
  const std::string original = aiperf::test::prometheus_fixture("trtllm_dynamo.txt");
  size_t rejected = 0;
  for (size_t n = 0; n <= original.size(); ++n) {
    const ParseResult r = parse(std::string_view(original).substr(0, n));
    if (!r.ok()) ++rejected;
  }
  CHECK(rejected > 0);
  CHECK(parse(original).ok());
}
