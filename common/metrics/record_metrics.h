// Per-record metric computation (record processor side).
#pragma once
#include <google/protobuf/repeated_ptr_field.h>

#include "metric_record.pb.h"
#include "metrics/metric_context.h"
#include "metrics/parsed_record.h"

namespace aiperf::metrics {

// Appends to `out` every applicable record metric that has a value for `r`, in base units
// (ns, tokens, tokens/sec/user), dependencies first. ERROR_ONLY metrics are computed only for
// error records and all others only for valid records. List metrics set is_list and values.
void compute_record_metrics(const ParsedRecord& r, const MetricContext& ctx,
                            google::protobuf::RepeatedPtrField<proto::MetricValue>* out);

}  // namespace aiperf::metrics
