// A Report shaped like a real run of `requests` requests: TTFT and latency over time, ISL vs
// OSL, the request timeline as spans, a secondary-axis throughput curve with error bars, plus
// the summary table. Deterministic (a fixed LCG), so sizes and counts are exact.
#pragma once
#include "plot/figure.h"

namespace aiperf::test {

plot::Report synthetic_run_report(int requests);

}  // namespace aiperf::test
