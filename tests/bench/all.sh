#!/usr/bin/env bash
# Benchmark (not a test): prints every figure of the "never the bottleneck" goals beside its goal
# (tests/bench/goals.py says what each is and how it is measured). About 4 minutes; --quick
# about 2. Then, for the reference beside us: tests/compat/speed.sh (docs/performance.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { echo "wrk not installed (apt-get install wrk)"; exit 1; }
exec python3 tests/bench/goals.py "$@"
