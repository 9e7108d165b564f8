#!/usr/bin/env python3
"""Multi-run aggregation against the reference's own code: runs ours with --num-profile-runs 3
against our mock, then feeds our three trial summaries to AIPerf 0.13.0's ConfidenceAggregation
and compares every value of our profile_export_aiperf_aggregate.json with what it computes
(same keys, values within 1e-9 relative, null where it has a non-finite value).

Run with the reference's interpreter (it imports aiperf):
  ~/.cache/aiperf-compat/aiperf-0.13.0/bin/python tests/compat/aggregate.py --aiperf build/bin/aiperf \
      --mock build/bin/aiperf-mock-server
"""
import argparse
import json
import math
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aiperf.common.models.export_models import JsonMetricResult
from aiperf.orchestrator.aggregation.confidence import ConfidenceAggregation
from aiperf.orchestrator.models import RunResult

FIELDS = ["mean", "std", "min", "max", "cv", "se", "ci_low", "ci_high", "t_critical"]


def start_mock(binary, log):
    proc = subprocess.Popen([binary, "--port", "0", "--ttft", "5", "--itl", "1"], stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        text = Path(log.name).read_text()
        m = re.search(r"http://[0-9.]+:[0-9]+", text)
        if m:
            return proc, m.group(0)
        time.sleep(0.05)
    proc.kill()
    sys.exit("mock server did not start")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aiperf", required=True)
    ap.add_argument("--mock", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = open(Path(tmp) / "mock.log", "w")
        mock, url = start_mock(args.mock, log)
        try:
            out = Path(tmp) / "artifacts"
            rc = subprocess.run([args.aiperf, "profile", "--model", "m", "--url", url, "--tokenizer", "gpt2",
                                 "--streaming", "--concurrency", "4", "--request-count", "40", "--isl", "20",
                                 "--osl", "10", "--num-profile-runs", "3", "--ui-type", "none",
                                 "--artifact-dir", str(out)], capture_output=True, text=True)
        finally:
            mock.kill()
        if rc.returncode != 0:
            print(rc.stdout[-2000:], rc.stderr[-2000:])
            sys.exit(f"aiperf exited {rc.returncode}")
        runs = []
        for d in sorted((out / "profile_runs").iterdir()):
            data = json.loads((d / "profile_export_aiperf.json").read_text())
            metrics = {k: JsonMetricResult(**v) for k, v in data.items() if isinstance(v, dict) and "unit" in v}
            runs.append(RunResult(label=d.name, success=True, summary_metrics=metrics, artifacts_path=d))
        ref = ConfidenceAggregation(confidence_level=0.95).aggregate(runs)
        ours = json.loads((out / "aggregate" / "profile_export_aiperf_aggregate.json").read_text())

    problems = []
    if set(ref.metrics) != set(ours["metrics"]):
        problems.append(f"keys: only the reference's {sorted(set(ref.metrics) - set(ours['metrics']))[:5]}, "
                        f"only ours {sorted(set(ours['metrics']) - set(ref.metrics))[:5]}")
    compared = 0
    for key, metric in ref.metrics.items():
        mine = ours["metrics"].get(key)
        if mine is None:
            continue
        for f in FIELDS:
            want, got = getattr(metric, f), mine[f]
            compared += 1
            if want is None or not math.isfinite(want):
                if got is not None:
                    problems.append(f"{key}.{f}: reference {want}, ours {got}")
            elif got is None or abs(want - got) > 1e-9 * max(1.0, abs(want)):
                problems.append(f"{key}.{f}: reference {want}, ours {got}")
        if metric.unit != mine["unit"]:
            problems.append(f"{key}.unit: reference {metric.unit}, ours {mine['unit']}")
    md = ours["metadata"]
    if (md["num_profile_runs"], md["num_successful_runs"], md["run_labels"]) != (3, ref.num_successful_runs,
                                                                                   ref.metadata["run_labels"]):
        problems.append(f"metadata: {md}")
    print(f"aggregate: {len(ref.metrics)} metric statistics, {compared} values compared with the reference's "
          f"ConfidenceAggregation: {len(problems)} differences")
    for p in problems[:20]:
        print("  " + p)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
