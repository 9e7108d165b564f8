// OSL Mismatch Count: valid records whose OSL misses requested_osl by more than
// min(requested * 5 %, 50) tokens. Drives the console's OSL mismatch warning.
#include <algorithm>

#include "metrics/types/builtin_metrics.h"

namespace aiperf::metrics::types {

MetricDescriptor osl_mismatch_count() {
  MetricDescriptor d;
  d.tag = "osl_mismatch_count";
  d.header = "OSL Mismatch Count";
  d.unit = units::kRequests;
  d.display_unit = units::kRequests;
  d.flags = flags::kProducesTokensOnly | flags::kNoConsole | flags::kNoIndividualRecords;
  d.kind = MetricKind::kAggregate;
  d.value_type = ValueType::kInt;
  d.required = {"requested_osl", "output_sequence_length"};
  d.aggregate_op = AggregateOp::kSum;
  d.aggregate = [](const proto::MetricRecord& rec, const MetricContext&) -> std::optional<double> {
    auto requested = find_value(rec, "requested_osl");
    auto osl = find_value(rec, "output_sequence_length");
    if (!requested || !osl) return std::nullopt;
    const double tolerance = std::min(*requested * kOslMismatchPct / 100.0, kOslMismatchMaxTokens);
    const double miss = *osl > *requested ? *osl - *requested : *requested - *osl;
    return miss > tolerance ? 1.0 : 0.0;
  };
  return d;
}

}  // namespace aiperf::metrics::types
