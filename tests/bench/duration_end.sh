#!/usr/bin/env bash
# Benchmark (not a test): a --benchmark-duration run must end within duration + grace + 1 s
# whatever the server does. For each server behaviour it prints how long after
# (profiling start + duration + grace) the aiperf process exited; the goal is <= 1 s.
# Usage: tests/bench/duration_end.sh [duration s, default 2] [grace s, default 1]
set -euo pipefail
cd "$(dirname "$0")/../.."
dur=${1:-2}; grace=${2:-1}
bin=$PWD/build/bin
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"' EXIT

# Servers start in this shell (not in $(...), which would wait for them) and leave their URL in $url.
start_mock() {  # name, mock args...
  local name=$1; shift
  "$bin/aiperf-mock-server" --port 0 "$@" >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do grep -q "listening on" "$tmp/$name.log" && break; sleep 0.1; done
  url=$(grep -o 'http://[0-9.]*:[0-9]*' "$tmp/$name.log" | head -1)
}

# A server that completes TCP handshakes (kernel backlog) but never accepts or reads.
start_black_hole() {
  python3 - "$tmp/hole.port" <<'PY' &
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1024)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
time.sleep(3600)
PY
  pids+=($!)
  for _ in $(seq 1 100); do [ -s "$tmp/hole.port" ] && break; sleep 0.1; done
  url="http://127.0.0.1:$(cat "$tmp/hole.port")"
}

printf "%-34s %10s %10s %9s\n" server records exit_after overshoot
run_case() {  # label, url
  local label=$1 url=$2 dir="$tmp/run$RANDOM"
  local t0; t0=$(date +%s.%N)
  "$bin/aiperf" profile --model m --url "$url" --tokenizer gpt2 --streaming --concurrency 8 --isl 16 --osl 200 \
    --extra-inputs ignore_eos:true --benchmark-duration "$dur" --benchmark-grace-period "$grace" \
    --artifact-dir "$dir" >"$dir.out" 2>&1 || true
  local t1; t1=$(date +%s.%N)
  python3 - "$dir" "$t1" "$dur" "$grace" "$label" <<'PY'
import datetime, json, os, sys
d, t1, dur, grace, label = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
s = json.load(open(os.path.join(d, "profile_export_aiperf.json")))
start = datetime.datetime.fromisoformat(s["start_time"]).timestamp()
n = sum(1 for _ in open(os.path.join(d, "profile_export.jsonl")))
after = t1 - start
print(f"{label:34s} {n:10d} {after:9.3f}s {after - dur - grace:+8.3f}s")
PY
}

start_mock ok --ttft 5 --itl 1; run_case "answers (ttft 5 ms, itl 1 ms)" "$url"
start_mock stall --ttft 600000; run_case "stalled before first token" "$url"
start_mock midstall --ttft 1 --itl 600000; run_case "stalls after first token" "$url"
start_mock slow --ttft 1 --itl 50; run_case "slow stream (itl 50 ms)" "$url"
start_black_hole; run_case "accepts TCP, never reads" "$url"
