// Which metrics a run produces: the endpoint's capabilities plus the run's options
// (streaming, server token counts, --goodput). Shared by the record processors (what to
// compute), the records service (what to aggregate and export) and the CLI (validation).
#pragma once
#include "config/run_config.h"
#include "endpoints/endpoint.h"
#include "metrics/metric_context.h"

namespace aiperf::endpoints {

// Throws std::invalid_argument (from parse_goodput) for an unusable --goodput.
metrics::MetricContext metric_context_for(const config::RunConfig& config, const EndpointInfo& endpoint);

}  // namespace aiperf::endpoints
