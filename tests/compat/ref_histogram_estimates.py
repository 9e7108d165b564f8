"""AIPerf 0.13's histogram quantile estimates of given histories, from the reference's own code.

Runs under the reference's interpreter (scenarios.py's server-metrics estimate check):

  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/compat/ref_histogram_estimates.py < IN

IN is a JSON list of histograms, each {"scrapes": [[timestamp_ns, sum, count, {le: cumulative}],
...] (one series' scrapes in time order), "start_ns": the profiling start, "buckets": {le: increase}
(as the export wrote them), "sum": ..., "count": ...}. As export_stats._compute_histogram_stats:
the bucket statistics are learned by accumulate_bucket_statistics from the last scrape before
start_ns (else the first) through the last, and compute_estimated_percentiles gets the increases.
Prints a JSON list, per histogram {"p1_estimate": ..., ..., "p99_estimate": ...}, or null when
0.13 writes none.
"""
from __future__ import annotations

import bisect
import json
import logging
import sys
from dataclasses import asdict

logging.disable(logging.CRITICAL)

from aiperf.common.models.server_metrics_models import MetricSample  # noqa: E402
from aiperf.server_metrics.histogram_percentiles import (  # noqa: E402
    accumulate_bucket_statistics,
    compute_estimated_percentiles,
)
from aiperf.server_metrics.storage import HistogramTimeSeries  # noqa: E402


def estimate(h: dict) -> dict | None:
    ts = HistogramTimeSeries()
    for t, s, c, buckets in h["scrapes"]:
        ts.append(int(t), MetricSample(buckets={k: float(v) for k, v in buckets.items()}, sum=s, count=c))
    times = [int(s[0]) for s in h["scrapes"]]
    ref = bisect.bisect_left(times, int(h["start_ns"])) - 1
    stats = accumulate_bucket_statistics(ts.sums, ts.counts, ts.bucket_les, ts.bucket_counts,
                                         start_idx=max(ref, 0))
    if not h.get("buckets") or not h.get("count"):
        return None
    out = compute_estimated_percentiles(bucket_deltas={k: int(v) for k, v in h["buckets"].items()},
                                        bucket_stats=stats, total_sum=float(h["sum"]),
                                        total_count=int(h["count"]))
    return asdict(out) if out else None


def main() -> None:
    print(json.dumps([estimate(h) for h in json.load(sys.stdin)]))


if __name__ == "__main__":
    main()
