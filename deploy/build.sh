#!/usr/bin/env bash
# Installs missing packages, then configures and builds into ./build (Release with debug info):
# the targets given as arguments (e.g. `aiperf aiperf-mock-server`), else everything, tests
# included. Incremental: a second run only rebuilds what changed (ccache helps clean builds).
set -euo pipefail
cd "$(dirname "$0")/.."
bash deploy/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAIPERF_WERROR=ON >/dev/null
ninja -C build -j"$(nproc)" "$@"
