#!/usr/bin/env bash
# Benchmark (not a test): how precisely aiperf offers load. For Poisson request rates against
# the zero-latency mock server it prints the achieved rate vs the target and the schedule lag
# (actual request start - intended start) p50/p99 from profile_export.jsonl.
# Usage: tests/bench/load_accuracy.sh [seconds per rate, default 5] [rates..., default 1000 10000 20000]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-5}; shift || true
rates=("${@:-1000 10000 20000}")
[ $# -gt 0 ] || rates=(1000 10000 20000)
bin=build/bin
tmp=$(mktemp -d)
trap 'kill $mock 2>/dev/null || true; rm -rf "$tmp"' EXIT

$bin/aiperf-mock-server --port 0 --fast >"$tmp/mock.log" 2>&1 &
mock=$!
for _ in $(seq 1 100); do grep -q "listening on" "$tmp/mock.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.]*:[0-9]*' "$tmp/mock.log" | head -1)

printf "%8s %10s %8s %12s %12s %8s\n" target achieved ratio lag_p50_us lag_p99_us errors
for rate in "${rates[@]}"; do
  dir="$tmp/r$rate"
  $bin/aiperf profile --model m --url "$url" --tokenizer gpt2 --isl 16 --osl 4 --extra-inputs ignore_eos:true \
    --request-rate "$rate" --arrival-pattern poisson --benchmark-duration "$secs" --random-seed 1 \
    --artifact-dir "$dir" >/dev/null 2>"$dir.err" || true
  python3 - "$dir/profile_export.jsonl" "$rate" "$secs" <<'PY'
import json, sys
path, rate, secs = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
lags, starts, errors = [], [], 0
for line in open(path):
    r = json.loads(line)
    m = r["metadata"]
    starts.append(m["request_start_ns"])
    if "error" in r: errors += 1
    if m.get("intended_start_ns"): lags.append((m["request_start_ns"] - m["intended_start_ns"]) / 1e3)
lags.sort()
pct = lambda q: lags[min(len(lags) - 1, int(q * (len(lags) - 1)))] if lags else float("nan")
achieved = len(starts) / secs
print(f"{rate:8.0f} {achieved:10.1f} {achieved / rate:8.4f} {pct(0.50):12.1f} {pct(0.99):12.1f} {errors:8d}")
PY
done
