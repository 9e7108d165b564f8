#!/usr/bin/env bash
# Benchmark (not a test): how precisely aiperf offers load, against the zero-latency mock server
# on the same host.
#  - Poisson request rates: the achieved send rate vs the target and vs the seeded schedule's
#    own rate (a Poisson count over a few seconds is itself ~1/sqrt(N) off the target, so
#    achieved/schedule is the tool's own error), the schedule lag (actual - intended send) p50
#    and p99, errors, and the CPU both sides spent per request (what limits the rate on a
#    small host: aiperf and the mock share its cores).
#  - A 200-entry trace replayed with --fixed-schedule: the send-time error p50/p99.
#  - First, the host's own wake-up precision (wake_floor), the floor under all of the above.
# Usage: tests/bench/load_accuracy.sh [seconds per rate, default 5] [rates..., default 1000 10000 20000]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-5}; shift || true
rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(1000 10000 20000)
bin=build/bin
tmp=$(mktemp -d)
trap 'kill $mock 2>/dev/null || true; rm -rf "$tmp"' EXIT

$bin/aiperf-mock-server --port 0 --fast >"$tmp/mock.log" 2>&1 &
mock=$!
for _ in $(seq 1 100); do grep -q "listening on" "$tmp/mock.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.]*:[0-9]*' "$tmp/mock.log" | head -1)
ticks=$(getconf CLK_TCK)
mock_cpu() { awk -v t="$ticks" '{print ($14 + $15) / t}' /proc/$mock/stat; }

# Runs aiperf with the given options; leaves its CPU seconds (it and its services) in $tmp/cpu.
profile() {  # dir, options...
  local dir=$1; shift
  /usr/bin/time -f "%U %S" -o "$tmp/time" $bin/aiperf profile --model m --url "$url" --tokenizer gpt2 \
    --isl 16 --osl 4 --extra-inputs ignore_eos:true --random-seed 1 --artifact-dir "$dir" "$@" \
    >"$dir.out" 2>&1 || true
  awk '{print $1 + $2}' "$tmp/time" >"$tmp/cpu"
}

# Prints lag statistics of a run; for rate runs also rates and CPU per request.
report() {  # jsonl, label, target rate (0 for a trace), aiperf cpu s, mock cpu s
  python3 - "$@" <<'PY'
import json, sys
path, label, rate, cpu, mock_cpu = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
lags, starts, intended, errors = [], [], [], 0
for line in open(path):
    r = json.loads(line)
    m = r["metadata"]
    if "error" in r: errors += 1
    starts.append(m["request_start_ns"])
    if m.get("intended_start_ns"):
        intended.append(m["intended_start_ns"])
        lags.append((m["request_start_ns"] - m["intended_start_ns"]) / 1e3)
lags.sort(); starts.sort(); intended.sort()
pct = lambda q: lags[min(len(lags) - 1, int(q * (len(lags) - 1)))] if lags else float("nan")
span = lambda t: (len(t) - 1) / ((t[-1] - t[0]) / 1e9) if len(t) > 1 else float("nan")
n = len(starts)
if rate:
    achieved, scheduled = span(starts), span(intended)
    print(f"{label:>8} {achieved:10.1f} {achieved / rate:8.4f} {achieved / scheduled:9.4f} {pct(0.5):9.1f} {pct(0.99):10.1f}"
          f" {errors:7d} {cpu * 1e6 / n:9.0f} {mock_cpu * 1e6 / n:9.0f}")
else:
    print(f"{label}: {n} requests, send-time error p50 {pct(0.5):.1f} us, p99 {pct(0.99):.1f} us, max {lags[-1]:.1f} us,"
          f" errors {errors}")
PY
}

# The floor under any schedule lag on this host: how late a thread wakes at a chosen instant.
$bin/wake_floor 2000
echo
echo "Poisson, ${secs} s per rate; achieved = sends/s over the run; vs sched = achieved / the schedule's own rate"
printf "%8s %10s %8s %9s %9s %10s %7s %9s %9s\n" target achieved ratio vs_sched p50_us p99_us errors aiperf_us mock_us
for rate in "${rates[@]}"; do
  dir="$tmp/r$rate"
  m0=$(mock_cpu)
  profile "$dir" --request-rate "$rate" --arrival-pattern poisson --benchmark-duration "$secs"
  m1=$(mock_cpu)
  report "$dir/profile_export.jsonl" "$rate" "$rate" "$(cat "$tmp/cpu")" "$(echo "$m1 - $m0" | bc -l)"
done
echo "(aiperf_us, mock_us: CPU microseconds per request spent by aiperf with all its services, and by the mock)"

# A 200-entry trace: Poisson gaps at 100 req/s, millisecond timestamps as mooncake traces have.
python3 - "$tmp/trace.jsonl" <<'PY'
import json, random, sys
rng, t = random.Random(7), 0.0
with open(sys.argv[1], "w") as f:
    for _ in range(200):
        t += rng.expovariate(100.0) * 1000
        f.write(json.dumps({"timestamp": round(t), "input_length": 16, "output_length": 4}) + "\n")
PY
profile "$tmp/trace" --input-file "$tmp/trace.jsonl" --custom-dataset-type mooncake_trace --fixed-schedule \
  --fixed-schedule-auto-offset
report "$tmp/trace/profile_export.jsonl" "trace replay (200 entries)" 0 0 0
