#!/usr/bin/env bash
# Quick start: install, build, then run a real streaming benchmark against the built-in mock
# server (started here on a free port and stopped at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/build.sh aiperf aiperf-mock-server  # the tests are not needed to run a benchmark

log=$(mktemp)
./build/bin/aiperf-mock-server --port 0 --ttft 50 --itl 10 >"$log" 2>&1 &
mock=$!
trap 'kill $mock 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.]*:[0-9]*' "$log" | head -1)
[ -n "$url" ] || { echo "mock server did not start:"; cat "$log"; exit 1; }

./build/bin/aiperf profile --model m --url "$url" --endpoint-type chat --streaming \
  --concurrency 8 --request-count 200 --synthetic-input-tokens-mean 100 --output-tokens-mean 20 \
  --extra-inputs ignore_eos:true --tokenizer gpt2 "$@"
