#!/usr/bin/env bash
# Benchmark (not a test): our aiperf and the reference AIPerf 0.13.0 against our mock server in the
# same run, printed as one markdown table (the one in docs/performance.md):
#   - concurrency 64, non-streaming and streaming, 100 output tokens: requests/s (each tool's summary
#     and the mock's counter), chunks/s, client CPU seconds per 1000 requests over the whole process
#     tree, peak RSS/PSS of the tree;
#   - launch-to-exit wall time of a one-request run (median of 3);
#   - against a slow mock (TTFT 1 s): requests really in flight at the server per requested
#     concurrency, and the TTFT each tool reports.
# Measurement details: tests/compat/speed_measure.py (docstring) and docs/performance.md.
#
#   tests/compat/speed.sh [seconds per throughput run, default 10]
#   AIPERF_BUILD_DIR      (default ./build) holds bin/aiperf and bin/aiperf-mock-server
#   AIPERF_COMPAT_CACHE   (default ~/.cache/aiperf-compat) holds bin/ref-aiperf (tests/compat/setup.sh)
#   SPEED_LEVELS          concurrencies tried against the slow server (default "250 500 1000 2500 5000 10000")
#   SPEED_SLOW_SECONDS    seconds per slow-server run (default: the first argument)
set -euo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-10}
build="${AIPERF_BUILD_DIR:-build}"
ref="${AIPERF_COMPAT_CACHE:-$HOME/.cache/aiperf-compat}/bin/ref-aiperf"
levels="${SPEED_LEVELS:-250 500 1000 2500 5000 10000}"
for b in "$build/bin/aiperf" "$build/bin/aiperf-mock-server"; do
  [ -x "$b" ] || { echo "speed: $b missing (bash deploy/build.sh)" >&2; exit 1; }
done
[ -x "$ref" ] || { echo "speed: $ref missing (bash tests/compat/setup.sh)" >&2; exit 1; }

# Every in-flight request holds a socket in the tool and one in the mock: raise the descriptor limit
# to the hard limit for both (children inherit it).
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
max_level=$(tr ' ,' '\n\n' <<<"$levels" | sort -n | tail -1)
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $((max_level + 1000)) ]; then
  echo "speed: warning: open-file limit $(ulimit -n) is below concurrency $max_level + 1000" >&2
fi

# The reference loads the same tokenizer directory as ours. Not HF_HUB_OFFLINE: in offline mode
# AIPerf 0.13.0 resolves every name through the Hub cache and rejects a local directory; given a
# directory it reads only local files (no network connection is made).
unset HF_HUB_OFFLINE TRANSFORMERS_OFFLINE
export HF_HUB_DISABLE_TELEMETRY=1

exec python3 tests/compat/speed_measure.py bench \
  --ours "$build/bin/aiperf" --ref "$ref" --mock "$build/bin/aiperf-mock-server" \
  --tokenizer "$PWD/common/tokenizer/data/gpt2" --seconds "$secs" \
  --slow-seconds "${SPEED_SLOW_SECONDS:-$secs}" --levels "$levels"
