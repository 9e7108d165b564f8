// --random-range-ratio: ISL and OSL drawn uniformly from an integer window around --isl/--osl,
// in AIPerf 0.13's two styles (--random-corpus-style): vllm, the symmetric window
// [floor(m*(1-r)), ceil(m*(1+r))] with r in [0, 1) and the server's special tokens taken off
// the ISL mean first; sglang, the lower-bounded window [max(1, int(m*r)), m] with r in [0, 1],
// the special tokens taken off each drawn ISL (floored at 1).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "config/prompt_shaping_config.h"
#include "numpy_rng.h"

namespace aiperf::dataset {

// Parses the option's text for `style` into (ISL ratio, OSL ratio): a plain float for both, or
// (vllm only) a JSON object {"input": a, "output": b}. Throws std::invalid_argument with
// AIPerf's message (without its "Invalid --random-range-ratio value: " lead, which the CLI adds).
std::pair<double, double> parse_range_ratio(const std::string& text, config::RandomCorpusStyle style);

// The ranges: vllm [0, 1) each; sglang [0, 1]. Throws std::invalid_argument with AIPerf's message.
void check_range_ratio(const std::pair<double, double>& ratios, config::RandomCorpusStyle style);

struct RangeWindow {
  int64_t isl_low = 0, isl_high = 0;  // inclusive
  int64_t osl_low = 0, osl_high = 0;  // inclusive
};

// The inclusive windows of `style` for the means and ratios; `special_tokens` is what the server
// adds to a prompt (vllm folds it into the ISL window, sglang subtracts it per draw).
RangeWindow range_window(config::RandomCorpusStyle style, int64_t isl_mean, int64_t osl_mean, double isl_ratio,
                         double osl_ratio, uint32_t special_tokens);

// The (ISL, OSL) stream of one dataset, as AIPerf draws it. With `preseed` (AIPerf does it for
// --prompt-corpus random only): `count` ISLs, then `count` OSLs, from NumPy's default_rng(seed)
// (vllm) or RandomState(fold(seed)) (sglang), a stream that stays available for the random
// corpus's offsets and top-up ids, which AIPerf draws from it next. Pairs past those (later
// turns), and every pair without `preseed`, are drawn live, ISL then OSL, from AIPerf's derived
// "models.range_ratio.distribution" stream (PCG64 in both styles).
class RangeRatioSampler {
 public:
  RangeRatioSampler(config::RandomCorpusStyle style, const RangeWindow& window, uint32_t special_tokens, uint64_t seed,
                    size_t count, bool preseed = true);
  std::pair<uint32_t, uint32_t> next();
  NumpyIntegers& stream() { return *stream_; }
  const RangeWindow& window() const { return window_; }

 private:
  uint32_t adjust_isl(int64_t isl) const;

  config::RandomCorpusStyle style_;
  RangeWindow window_;
  uint32_t special_tokens_;
  std::unique_ptr<NumpyIntegers> stream_;  // the preseed stream (unused without preseed)
  NumpyPcg64 live_;
  std::vector<int64_t> isl_, osl_;
  size_t next_ = 0;
};

}  // namespace aiperf::dataset
