// MetricContext: what the run can produce, deciding which metrics exist (spec §6.1).
#pragma once
#include <string>
#include <vector>

#include "metrics/metric_flags.h"

namespace aiperf::metrics {

// One --goodput service-level objective, threshold in the metric's base unit.
struct GoodputSlo {
  std::string tag;
  double threshold = 0;
  bool larger_is_better = false;  // value >= threshold is good; otherwise value <= threshold
  bool operator==(const GoodputSlo&) const = default;
};

struct MetricContext {
  bool streaming = false;               // --streaming on an endpoint that streams
  bool produces_tokens = true;          // endpoint returns generated text (not embeddings)
  bool tokenizes_input = true;          // endpoint input is text we tokenize for ISL
  // SUPPORTS_REASONING is not in 0.6.0's skip list, so reasoning metrics exist for every
  // token-producing endpoint; set false only for an endpoint that can never emit reasoning.
  bool supports_reasoning = true;
  bool supports_audio = false;
  bool supports_images = false;
  bool supports_video = false;
  bool produces_video = false;
  bool use_server_token_count = false;  // --use-server-token-count: USAGE_DIFF_ONLY is moot
  bool per_chunk_usage = false;         // --per-chunk-usage: ITL uses the first chunk's reported tokens
  bool goodput = false;                 // --goodput given
  std::vector<GoodputSlo> goodput_slos;  // parsed --goodput (metrics/goodput.h)
  bool http_trace = false;              // transport records HTTP timing phases
  double usage_diff_threshold_pct = 10.0;  // usage_discrepancy_count: a diff above this counts
  bool show_internal = false;           // developer mode: export INTERNAL metrics
  bool show_experimental = false;       // developer mode: compute EXPERIMENTAL metrics
  bool operator==(const MetricContext&) const = default;
};

// Whether a metric with these flags is instantiated for the run. Does not look at
// dependencies (see MetricRegistry::applicable) nor at ERROR_ONLY, which selects records,
// not runs. INTERNAL metrics are always computed (others depend on them) and only hidden
// from exports.
bool flags_applicable(MetricFlags metric_flags, const MetricContext& ctx);

// Whether an exported/printed view should include a metric with these flags.
bool exported(MetricFlags metric_flags, const MetricContext& ctx);

}  // namespace aiperf::metrics
