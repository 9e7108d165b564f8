// --seq-dist: the user's (ISL, OSL) mix in any of its four spellings. std::invalid_argument is
// the documented refusal; a parsed mix must sample.
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "seq_dist.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto dist = aiperf::dataset::SeqDist::parse(text);
    std::mt19937_64 rng(1);
    for (int i = 0; i < 4; ++i) (void)dist.sample(rng);
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
