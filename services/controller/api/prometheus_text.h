// GET /metrics: the run so far in Prometheus text format, built as prometheus-cpp metric
// families and written by its TextSerializer.
//  - run progress (from the credit phases and the records service), per phase:
//      aiperf_requests_sent_total / aiperf_requests_completed_total / aiperf_requests_cancelled_total
//      (counters), aiperf_requests_in_flight and aiperf_requests_expected (gauges),
//      aiperf_records_total{status="success"|"error"} (profiling records received);
//  - the live metric snapshot, named as AIPerf's API does: a summary aiperf_<tag>_<unit> with
//    quantile 0.01..0.99 samples plus _sum and _count, and gauges aiperf_<tag>_<stat>_<unit>
//    for avg/min/max/std (count and sum as gauges when there are no quantiles);
//  - aiperf_info{model,endpoint_type,streaming,...} 1.
// Metric samples carry the run's identifying labels (model, endpoint_type, streaming, ...).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "config/run_config.h"
#include "ui/run_state.h"

namespace aiperf::controller::api {

using Labels = std::vector<std::pair<std::string, std::string>>;

// The identifying labels: benchmark_id, model, endpoint_type, streaming, concurrency and
// request_rate when set.
Labels info_labels(const config::RunConfig& config);

// AIPerf's metric name parts: lower case, [^a-z0-9_] -> '_', a leading digit prefixed by '_'.
std::string sanitize_metric_name(const std::string& name);
// A unit as a name suffix: "%" -> percent, "/" -> _per_, tokens_per_sec -> tps, then sanitized.
std::string sanitize_unit(const std::string& unit);

std::string prometheus_text(const ui::RunState& state, const Labels& labels);

}  // namespace aiperf::controller::api
