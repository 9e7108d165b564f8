#!/usr/bin/env bash
# Install, build, run the whole test suite (unit + end-to-end) with CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/build.sh
ctest --test-dir build --output-on-failure -j2 --timeout 600
