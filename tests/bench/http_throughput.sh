#!/usr/bin/env bash
# Benchmark (not a test): aiperf's request rate and SSE chunk rate at concurrency 64 against
# its own mock server, side by side with wrk against the same mock in the same run, as ratios.
# Usage: tests/bench/http_throughput.sh [seconds per measurement, default 10] [aiperf args...]
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}; shift || true
bin=build/bin
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 1; }
tmp=$(mktemp -d)
trap 'kill $mock 2>/dev/null || true; rm -rf "$tmp"' EXIT

$bin/aiperf-mock-server --port 0 --fast >"$tmp/mock.log" 2>&1 &
mock=$!
for _ in $(seq 1 100); do grep -q "listening on" "$tmp/mock.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.]*:[0-9]*' "$tmp/mock.log" | head -1)

prompt="Hello there, this is a short benchmark prompt used for every request."
body_plain='{"messages":[{"role":"user","content":"'"$prompt"'"}],"model":"m","stream":false,"max_completion_tokens":16,"ignore_eos":true}'
body_stream='{"messages":[{"role":"user","content":"'"$prompt"'"}],"model":"m","stream":true,"max_completion_tokens":100,"ignore_eos":true,"stream_options":{"include_usage":true}}'

wrk_rps() {  # $1 body
  WRK_BODY="$1" wrk -t2 -c64 -d"${secs}s" -s tests/bench/chat.lua "$url/v1/chat/completions" |
    awk '/Requests\/sec/ {print $2}'
}

aiperf_run() {  # $1 dir, rest: args
  local dir=$1; shift
  $bin/aiperf profile --model m --url "$url" --tokenizer gpt2 --concurrency 64 --benchmark-duration "$secs" \
    --benchmark-grace-period 5 --isl 16 --artifact-dir "$dir" --export-level summary "$@" >/dev/null
  python3 -c "import json,sys; d=json.load(open('$dir/profile_export_aiperf.json')); \
print(d['request_throughput']['avg'], d.get('output_token_throughput',{}).get('avg',0), d.get('error_request_count',{}).get('avg',0))"
}

echo "== non-streaming, concurrency 64, ${secs}s each"
w1=$(wrk_rps "$body_plain")
read -r a1 _ e1 < <(aiperf_run "$tmp/plain" --osl 16 --extra-inputs ignore_eos:true "$@")
echo "wrk    requests/s: $w1"
echo "aiperf requests/s: $a1  (errors: $e1)"
python3 -c "print(f'ratio aiperf/wrk: {float($a1)/float($w1):.3f}')"

echo "== streaming (100 tokens = 100 content chunks per request), concurrency 64, ${secs}s each"
w2=$(wrk_rps "$body_stream")
read -r a2 t2 e2 < <(aiperf_run "$tmp/stream" --streaming --osl 100 --extra-inputs ignore_eos:true "$@")
echo "wrk    chunks/s: $(python3 -c "print(round(float($w2)*100))")  (requests/s $w2)"
echo "aiperf chunks/s: $(python3 -c "print(round(float($t2)))")  (requests/s $a2, errors: $e2)"
python3 -c "print(f'ratio aiperf/wrk: {float($t2)/(float($w2)*100):.3f}')"
