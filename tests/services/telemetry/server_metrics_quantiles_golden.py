#!/usr/bin/env python3
"""Golden values of server_metrics_quantiles_test.cpp: AIPerf 0.13.0's own histogram statistics.

Runs the reference's _compute_histogram_stats (aiperf/server_metrics/export_stats.py, which calls
accumulate_bucket_statistics and compute_estimated_percentiles) on scripted scrape sequences, with
the profiling window starting at `start_ns` and no end (our window: the last scrape closes it),
and prints the cases as C++ initialisers for the test. Run it with the reference's Python:

  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/services/telemetry/server_metrics_quantiles_golden.py
"""

from aiperf.common.models.server_metrics_models import MetricSample, TimeRangeFilter
from aiperf.server_metrics.export_stats import _compute_histogram_stats
from aiperf.server_metrics.storage import HistogramTimeSeries

S = 1_000_000_000
LES = ["0.01", "0.1", "1", "+Inf"]
KEYS = ["p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95", "p99"]


def cumulative(per_bucket):
    out, acc = [], 0
    for c in per_bucket:
        acc += c
        out.append(acc)
    return out


def series(steps, les=LES, base=(0.0, 0, None)):
    """Scrapes one second apart from t=0: each step adds (sum, per-bucket counts) to the last."""
    total_sum, total_count, buckets = base
    buckets = list(buckets or [0] * len(les))
    out = [(0, total_sum, total_count, cumulative_from(buckets))]
    for i, (dsum, per_bucket) in enumerate(steps, start=1):
        total_sum += dsum
        total_count += sum(per_bucket)
        buckets = [b + c for b, c in zip(buckets, per_bucket)]
        out.append((i * S, total_sum, total_count, cumulative_from(buckets)))
    return out


def cumulative_from(per_bucket):
    return cumulative(per_bucket)


CASES = [
    # All observations in (0.1, 1], interval means 0.3 +- 1e-4: a two-point mass (4 std < 1 % of the bucket).
    ("one bucket, tight spread", LES, S // 2,
     series([(10 * 0.3, [0, 0, 10, 0]), (20 * 0.3001, [0, 0, 20, 0]), (5 * 0.2999, [0, 0, 5, 0]),
             (7 * 0.3, [0, 0, 7, 0])])),
    # Interval means 0.52, 0.55, 0.58 near the bucket's centre: the blend.
    ("one bucket, centred spread", LES, S // 2,
     series([(10 * 0.52, [0, 0, 10, 0]), (10 * 0.55, [0, 0, 10, 0]), (10 * 0.58, [0, 0, 10, 0])])),
    # Interval means 0.2, 0.5, 0.8: the variance-shaped spread.
    ("one bucket, wide spread", LES, S // 2,
     series([(4 * 0.2, [0, 0, 4, 0]), (6 * 0.5, [0, 0, 6, 0]), (5 * 0.8, [0, 0, 5, 0])])),
    # Two intervals only (no variance): a uniform grid shifted onto the learned mean.
    ("one bucket, two intervals", LES, S // 2,
     series([(3 * 0.2, [0, 0, 3, 0]), (5 * 0.25, [0, 0, 5, 0])])),
    # Every interval spans buckets (nothing learned), the sum away from the midpoints: the shift.
    ("spread over buckets", LES, S // 2,
     series([(0.005 * 2 + 0.05 * 5 + 0.4 * 3, [2, 5, 3, 0]), (0.008 * 4 + 0.09 * 6 + 0.9 * 1, [4, 6, 1, 0]),
             (0.002 + 0.02 * 3 + 0.2 * 8, [1, 3, 8, 0])])),
    # Some single-bucket intervals (learned means) mixed with spread ones.
    ("spread and learned", LES, S // 2,
     series([(0.5 * 4, [0, 0, 4, 0]), (0.02 * 3, [0, 3, 0, 0]), (0.6 * 4 + 0.03 * 2, [0, 2, 4, 0]),
             (0.45 * 2, [0, 0, 2, 0]), (0.07 * 5, [0, 5, 0, 0]), (0.012 * 6, [0, 6, 0, 0]),
             (0.003 * 9 + 0.3 * 1, [9, 0, 1, 0])])),
    # Observations above the last bound: the +Inf bucket's share of the sum.
    ("+Inf bucket", LES, S // 2,
     series([(0.05 * 10 + 0.5 * 5 + 3.0 * 4, [0, 10, 5, 4]), (0.06 * 10 + 2.5 * 2, [0, 10, 0, 2])])),
    # One observation above the last bound (it sits at the back-calculated mean).
    ("+Inf bucket, one observation", LES, S // 2,
     series([(0.05 * 10 + 7.5, [0, 10, 0, 1])])),
    # +Inf observations but too little sum left for them: 1.5 x the last bound.
    ("+Inf bucket, sum too small", LES, S // 2,
     series([(0.06 * 10 + 0.2, [0, 10, 0, 3])])),
    # A counter reset mid-run (the server restarted) whose counts end above the baseline.
    ("counter reset mid-run", LES, S // 2,
     [(0, 2.0, 10, [0, 2, 10, 10]), (1 * S, 4.0, 20, [0, 4, 20, 20]), (2 * S, 0.3, 3, [0, 2, 3, 3]),
      (3 * S, 5.5, 25, [1, 6, 25, 25]), (4 * S, 9.0, 30, [1, 6, 30, 30])]),
    # A bucket ends below the baseline: buckets left out, no estimates.
    ("bucket reset", LES, S // 2,
     [(0, 2.0, 10, [0, 8, 10, 10]), (1 * S, 0.5, 5, [0, 1, 5, 5]), (2 * S, 6.0, 22, [0, 4, 22, 22])]),
    # One scrape only: no increase, count 0 and no estimates.
    ("single scrape", LES, 0, [(S, 4.0, 10, [0, 2, 10, 10])]),
    # A baseline and one scrape in the window: one interval, spread (nothing learned).
    ("baseline and one scrape", LES, S // 2,
     [(0, 1.0, 5, [0, 1, 5, 5]), (S, 4.5, 17, [0, 5, 16, 17])]),
    # The reference scrape is the second: the interval before it teaches nothing.
    ("learning from the reference on", LES, S + S // 2,
     series([(0.9 * 5, [0, 0, 5, 0]), (0.3 * 5, [0, 0, 5, 0]), (0.35 * 5, [0, 0, 5, 0]),
             (0.32 * 4 + 0.05, [0, 1, 4, 0])])),
    # All observations 0.
    ("zero sum", LES, S // 2, series([(0.0, [4, 0, 0, 0])])),
    # 95 % in one bucket, nothing learned: the dominant bucket centres on the mean.
    ("dominant bucket", LES, S // 2,
     series([(0.7 * 19 + 0.05, [0, 1, 19, 0]), (0.72 * 38 + 0.05 * 1, [0, 1, 38, 0])])),
    # More than 100 000 observations: counts and sum scaled down together.
    ("over 100000 observations", LES, S // 2,
     series([(0.004 * 30000 + 0.05 * 90000 + 0.4 * 40000 + 2.0 * 1001,
              [30000, 90000, 40000, 1001]), (0.06 * 50000, [0, 50000, 0, 0])])),
    # vLLM's inter-token latency buckets, the mock's 20 ms steps over a few scrapes.
    ("vllm itl buckets", ["0.01", "0.025", "0.05", "0.075", "0.1", "0.15", "0.2", "0.3", "0.4", "0.5",
                          "0.75", "1.0", "2.5", "+Inf"], S // 2,
     series([(0.0201 * 18, [0, 18] + [0] * 12), (0.0199 * 36, [0, 36] + [0] * 12),
             (0.0202 * 27 + 0.03, [0, 27, 1] + [0] * 11), (0.0200 * 18, [0, 18] + [0] * 12)],
            les=["0.01", "0.025", "0.05", "0.075", "0.1", "0.15", "0.2", "0.3", "0.4", "0.5",
                 "0.75", "1.0", "2.5", "+Inf"])),
]


def cxx_double(v):
    r = repr(float(v))
    return r if ("." in r or "e" in r or "inf" in r or "nan" in r) else r + ".0"


def main():
    for name, les, start_ns, scrapes in CASES:
        ts = HistogramTimeSeries()
        for t, s, c, b in scrapes:
            ts.append(t, MetricSample(buckets=dict(zip(les, map(float, b))), sum=s, count=c))
        out = _compute_histogram_stats(ts, TimeRangeFilter(start_ns=start_ns, end_ns=None))
        stats = out.stats
        est = [getattr(stats, f"{k}_estimate", None) for k in KEYS]
        has = est[0] is not None
        les_txt = ", ".join(f'"{le}"' for le in les)
        scr = ",\n      ".join(
            f"{{{t}, {cxx_double(s)}, {cxx_double(c)}, {{{', '.join(cxx_double(x) for x in b)}}}}}"
            for t, s, c, b in scrapes)
        est_txt = ", ".join(cxx_double(v) for v in est) if has else ""
        print(f'    {{"{name}",\n     {{{les_txt}}},\n     {start_ns},\n     {{{scr}}},\n'
              f'     {stats.count}, {"true" if has else "false"}, {{{est_txt}}}}},')


if __name__ == "__main__":
    main()
