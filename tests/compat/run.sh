#!/usr/bin/env bash
# The reference as judge, in one command: installs AIPerf 0.13.0 and GenAI-Perf 0.0.16 (cached,
# tests/compat/setup.sh), then prints
#   1. option coverage, ours of theirs (fails if docs/compatibility.md is stale),
#   2. file, key and metric differences per scenario, both tools against our mock (fails on any
#      difference not listed in tests/compat/known_differences.md), the same for GenAI-Perf's files
#      (tests/compat/genai_perf_scenarios.py), baseten_trace replay (tests/compat/baseten_replay.py),
#      and the multi-run aggregate
#      against the reference's own aggregation code (tests/compat/aggregate.py),
#   3. the speed table, both tools side by side (skipped with --no-speed; it is a benchmark).
# Every part runs even if an earlier one failed; the exit status is 1 if any failed.
#
#   tests/compat/run.sh [--no-speed] [--speed-seconds N]
#   AIPERF_BUILD_DIR (default ./build) holds bin/aiperf and bin/aiperf-mock-server; built if missing.
set -uo pipefail
cd "$(dirname "$0")/../.."
speed=1
speed_seconds=10
while [ $# -gt 0 ]; do
  case "$1" in
    --no-speed) speed=0 ;;
    --speed-seconds) speed_seconds="$2"; shift ;;
    *) echo "usage: tests/compat/run.sh [--no-speed] [--speed-seconds N]" >&2; exit 2 ;;
  esac
  shift
done

build="${AIPERF_BUILD_DIR:-build}"
if [ ! -x "$build/bin/aiperf" ] || [ ! -x "$build/bin/aiperf-mock-server" ]; then
  bash deploy/build.sh || exit 1
fi
bash tests/compat/setup.sh || exit 1

failed=()
section() { printf '\n==== %s ====\n' "$1"; }
# Everything printed is also kept, so the end can repeat the failing lines: CI shows only the tail.
log="$(mktemp /tmp/aiperf-compat-log.XXXXXX)"
exec > >(tee "$log") 2>&1

section "option coverage (ours of the reference's)"
python3 tests/compat/options.py --aiperf "$build/bin/aiperf" --check-doc docs/compatibility.md || failed+=(options)

section "files, keys and metric values (both tools against our mock)"
python3 tests/compat/scenarios.py --aiperf "$build/bin/aiperf" --mock "$build/bin/aiperf-mock-server" || failed+=(scenarios)

section "GenAI-Perf's files (genai-perf 0.0.16 and ours against our mock)"
python3 tests/compat/genai_perf_scenarios.py --aiperf "$build/bin/aiperf" --mock "$build/bin/aiperf-mock-server" \
  || failed+=(genai-perf)

section "baseten_trace replay (bodies, order and send times, both tools against our mock)"
python3 tests/compat/baseten_replay.py --aiperf "$build/bin/aiperf" --mock "$build/bin/aiperf-mock-server" \
  || failed+=(baseten-replay)

section "multi-run aggregate (ours against the reference's ConfidenceAggregation)"
"${AIPERF_COMPAT_CACHE:-$HOME/.cache/aiperf-compat}/aiperf-0.13.0/bin/python" tests/compat/aggregate.py \
  --aiperf "$build/bin/aiperf" --mock "$build/bin/aiperf-mock-server" || failed+=(aggregate)

if [ "$speed" = 1 ]; then
  section "speed, side by side"
  bash tests/compat/speed.sh "$speed_seconds" || failed+=(speed)
fi

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "==== what failed (repeated from above) ===="
  grep -A1 -E '^ *(DIFF|FAIL|Traceback|error|Error)|: FAIL |FAILED|not accepted' "$log" | grep -v '^compat: FAILED' | head -60
  echo "compat: FAILED: ${failed[*]}"
  exit 1
fi
echo "compat: all checks passed"
